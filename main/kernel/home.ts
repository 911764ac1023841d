import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** `--home DIR`, else `$LOOMVERSE_HOME`, else `~/.loomverse`. */
export function resolveHome(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag || env.LOOMVERSE_HOME || join(homedir(), '.loomverse')
  return resolve(chosen)
}

/** The data home's layout (DESIGN: Storage). Created on first use. */
export function homePaths(home: string) {
  return {
    home,
    db: join(home, 'loomverse.db'),
    memory: join(home, 'memory'),
    images: join(home, 'image'),
    documents: join(home, 'documents'),
    scenarios: join(home, 'scenarios'),
    exports: join(home, 'exports'),
    /** Files a window may import (memory chat logs): it names a file here, never an arbitrary path. */
    imports: join(home, 'imports'),
    /** Deleted items, one `YYYYMMDD_HHMMSS_<uuid>/` folder each, until restored. */
    trash: join(home, 'trash'),
    hostFile: join(home, 'host.json'),
    /** One small file per live process using this home, so start-up recovery knows whether it is alone. */
    run: join(home, 'run'),
  }
}
export type HomePaths = ReturnType<typeof homePaths>

export function ensureHome(home: string): HomePaths {
  const paths = homePaths(home)
  mkdirSync(paths.home, { recursive: true, mode: 0o700 })
  return paths
}
