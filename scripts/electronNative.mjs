// better-sqlite3 is a native module: node_modules holds the build for Node (tests, CLI).
// Electron needs one for its own ABI. Rather than rebuilding node_modules back and forth,
// `npm start` keeps a second copy built for Electron in node_modules/.cache and tells the
// main process where it is (LOOMVERSE_SQLITE_BINDING). Packaged apps don't need this:
// electron-builder rebuilds native modules for Electron when it packages.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'

const require = createRequire(import.meta.url)

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
    spawnSync(process.execPath, [script, ...args], { cwd: dir, stdio: 'inherit' }).status === 0 && existsSync(binding)
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
