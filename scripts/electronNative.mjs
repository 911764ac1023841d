// better-sqlite3 is a native module: node_modules holds the build for Node (tests, CLI).
// Electron needs one for its own ABI. Rather than rebuilding node_modules back and forth,
// `npm start` keeps a second copy built for Electron in node_modules/.cache and tells the
// main process where it is (LOOMVERSE_SQLITE_BINDING). Packaging (scripts/dist.mjs) rebuilds
// native modules for Electron with the same cleaned environment, and scripts/packageCheck.mjs
// verifies the result.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'

const require = createRequire(import.meta.url)

/**
 * npm settings that point node-gyp and prebuild-install at a runtime. A machine set up to
 * build for Node (e.g. npm_config_nodedir to its headers) would otherwise build Electron's
 * addon against Node's ABI: it loads in tests and fails in the app.
 */
const runtimeSettings = /^npm_config_(nodedir|target|target_arch|runtime|disturl|dist_url|build_from_source|devdir)$/i

/** The environment for building native modules for Electron: runtime settings cleared, Electron's set. */
export function electronBuildEnv(env, electronVersion, arch = process.arch) {
  const clean = Object.fromEntries(Object.entries(env).filter(([name]) => !runtimeSettings.test(name)))
  if (!electronVersion) return clean
  return {
    ...clean,
    npm_config_runtime: 'electron',
    npm_config_target: electronVersion,
    npm_config_target_arch: arch,
    npm_config_disturl: 'https://electronjs.org/headers',
  }
}

/** Returns the path of better_sqlite3.node built for this Electron, building it on first use; null if that failed. */
export function electronSqliteBinding(electronVersion, log = console.log) {
  const source = resolve('node_modules', 'better-sqlite3')
  const dir = resolve(
    'node_modules',
    '.cache',
    'loomverse',
    `electron-${electronVersion}-${process.platform}-${process.arch}`,
    'better-sqlite3',
  )
  const binding = join(dir, 'build', 'Release', 'better_sqlite3.node')
  if (existsSync(binding)) return binding

  log(`Building better-sqlite3 for Electron ${electronVersion} (once)…`)
  rmSync(dir, { recursive: true, force: true })
  cpSync(source, dir, { recursive: true, filter: (p) => !p.includes(`${join(source, 'build')}`) })
  const target = ['--runtime=electron', `--target=${electronVersion}`, `--arch=${process.arch}`]
  const run = (script, args) =>
    spawnSync(process.execPath, [script, ...args], {
      cwd: dir,
      stdio: 'inherit',
      env: electronBuildEnv(process.env, electronVersion),
    }).status === 0 && existsSync(binding)
  const prebuilt = run(require.resolve('prebuild-install/bin.js'), [
    '--runtime=electron',
    `--target=${electronVersion}`,
    `--arch=${process.arch}`,
  ])
  const built =
    prebuilt ||
    run(require.resolve('node-gyp/bin/node-gyp.js'), [
      'rebuild',
      '--release',
      ...target,
      '--dist-url=https://electronjs.org/headers',
    ])
  return built ? binding : null
}
