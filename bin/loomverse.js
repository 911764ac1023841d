#!/usr/bin/env node
// The `loomverse` command. It runs the built CLI in out/main; the first run after a fresh
// install builds it (electron-vite build, a couple of seconds).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'out', 'main', 'cli.js')

if (!existsSync(cli)) {
  console.error('loomverse: first run, building the app…')
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  if (build.status !== 0) {
    console.error('loomverse: the build failed; run "npm run build" to see why.')
    process.exit(1)
  }
}
const { main } = await import(pathToFileURL(cli).href)
await main(process.argv.slice(2))
