#!/usr/bin/env node
// `npm run dist -- [electron-builder arguments]`: builds the bundles, then the installers.
// electron-builder rebuilds better-sqlite3 for Electron in node_modules itself. Around that:
// - npm's runtime settings are cleared (electronBuildEnv), so a machine configured for Node
//   cannot leak its headers into the Electron build;
// - @electron/rebuild's "already built" markers are removed first: a marker left by a build
//   that went wrong (Node headers, Electron's ABI on the label) would make it skip the rebuild;
// - the Node build of the addon is put back afterwards, so tests and the CLI keep working.
// scripts/packageCheck.mjs (afterPack) then verifies what was packaged (the word vectors too).
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { electronBuildEnv } from './electronNative.mjs'

const env = electronBuildEnv(process.env)
const release = join('node_modules', 'better-sqlite3', 'build', 'Release')
const addon = join(release, 'better_sqlite3.node')
const nodeAddon = join('node_modules', '.cache', 'loomverse', 'better_sqlite3.node-build.node')

function run(script, args) {
  return spawnSync(process.execPath, [script, ...args], { stdio: 'inherit', env }).status ?? 1
}

const builderBin = JSON.parse(readFileSync(join('node_modules', 'electron-builder', 'package.json'), 'utf8')).bin
const builder = join(
  'node_modules',
  'electron-builder',
  typeof builderBin === 'string' ? builderBin : builderBin['electron-builder'],
)

// The word vectors the app ships (made at npm install; again here if that install skipped scripts).
if (run(join('scripts', 'wordVectors.mjs'), []) !== 0) process.exit(1)
if (run(join('node_modules', 'electron-vite', 'bin', 'electron-vite.js'), ['build']) !== 0) process.exit(1)
rmSync(join(release, '.forge-meta'), { force: true })
if (existsSync(addon)) {
  rmSync(nodeAddon, { force: true })
  mkdirSync(dirname(nodeAddon), { recursive: true })
  copyFileSync(addon, nodeAddon)
}
const status = run(builder, process.argv.slice(2))
if (existsSync(nodeAddon)) {
  // node-gyp may have removed build/ when its rebuild failed.
  rmSync(addon, { force: true })
  mkdirSync(release, { recursive: true })
  copyFileSync(nodeAddon, addon)
  rmSync(join(release, '.forge-meta'), { force: true })
}
process.exit(status)
