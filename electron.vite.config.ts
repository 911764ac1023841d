import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'

/**
 * The dev server (npm run dev) injects an inline React Refresh preamble and talks to its own
 * HMR socket; the page's strict CSP would block both. Relax it for `serve` only: built pages
 * keep the strict policy.
 */
const devCsp: Plugin = {
  name: 'loomverse-dev-csp',
  apply: 'serve',
  transformIndexHtml: (html) =>
    html
      .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
      .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*"),
}

const alias = { '@shared': resolve(import.meta.dirname, 'shared') }

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // index: the Electron shell; cli: `loomverse serve` and friends under plain Node.
        input: {
          index: resolve(import.meta.dirname, 'main/app/index.ts'),
          cli: resolve(import.meta.dirname, 'main/cli.ts'),
          // The job worker thread's own entry: worker_threads loads it by path.
          jobWorker: resolve(import.meta.dirname, 'main/workers/jobWorker.ts'),
          // The memory worker (persona memory jobs), found beside the main bundle.
          memoryWorker: resolve(import.meta.dirname, 'main/workers/memoryWorker.ts'),
        },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'preload/index.ts') },
        // A sandboxed preload cannot load ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    resolve: { alias },
    plugins: [react(), devCsp],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      // electron-vite leaves bundles unminified; the renderer is the big one (React, React Flow).
      minify: true,
      rollupOptions: { input: resolve(import.meta.dirname, 'renderer/index.html') },
    },
  },
})
