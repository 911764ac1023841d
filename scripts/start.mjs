#!/usr/bin/env node
// `npm start`: the desktop app when Electron's binary is here (fetching it first if it was
// skipped at install), otherwise browser mode on 127.0.0.1. `npm start -- --browser`
// forces browser mode; other arguments go to `loomverse serve` (e.g. `-- --port 4567`).
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { electronSqliteBinding } from './electronNative.mjs'

const require = createRequire(import.meta.url)
const args = process.argv.slice(2)
const forceBrowser = args.includes('--browser') || process.env.LOOMVERSE_BROWSER === '1'
const serveArgs = args.filter((a) => a !== '--browser')

function build() {
  const run = spawnSync(process.execPath, [join('node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (run.status !== 0) {
    console.error('The build failed: run "npm run build" to see the errors.')
    process.exit(1)
  }
}

/** The Electron executable, or the reason there is none. */
function electronBinary() {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display to open a window on' }
  }
  const pkg = join('node_modules', 'electron')
  if (!existsSync(join(pkg, 'package.json'))) return { reason: 'electron is not installed' }
  if (!existsSync(join(pkg, 'path.txt'))) {
    // npm 11's allowScripts skipped the download at install time: fetch it now.
    console.log('Fetching the Electron binary (skipped at install)…')
    const fetched = spawnSync(process.execPath, [join(pkg, 'install.js')], {
      stdio: ['ignore', 'inherit', 'pipe'],
      timeout: 180_000,
      encoding: 'utf8',
    })
    if (fetched.status !== 0) {
      const why = (fetched.stderr ?? '').split('\n').find((l) => l.trim()) ?? 'timed out'
      return { reason: `the Electron binary could not be downloaded: ${why.trim()}` }
    }
  }
  try {
    const path = require('electron')
    return existsSync(path) ? { path } : { reason: 'the Electron binary is missing' }
  } catch (e) {
    return { reason: e.message }
  }
}

/** Runs a child in the foreground: its exit is ours, and Ctrl+C reaches it. */
function foreground(command, commandArgs, env = process.env) {
  const child = spawn(command, commandArgs, { stdio: 'inherit', env })
  child.on('exit', (code) => process.exit(code ?? 0))
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
}

build()
const electron = forceBrowser ? { reason: 'browser mode was asked for' } : electronBinary()
const binding = electron.path ? electronSqliteBinding(electronVersion()) : null

if (electron.path && binding) {
  foreground(electron.path, ['.'], { ...process.env, LOOMVERSE_SQLITE_BINDING: binding })
} else {
  const reason = electron.path ? 'better-sqlite3 could not be built for Electron' : electron.reason
  console.log(`Electron is not available (${reason}): starting browser mode.`)
  foreground(process.execPath, [join('bin', 'loomverse.js'), 'serve', ...serveArgs])
}

function electronVersion() {
  return JSON.parse(readFileSync(join('node_modules', 'electron', 'package.json'), 'utf8')).version
}
