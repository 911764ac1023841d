import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

/** A fresh LOOMVERSE_HOME for each test, removed afterwards. */
export function useTempHome(): () => string {
  let dir: string | null = null
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = null
  })
  return () => (dir ??= mkdtempSync(join(tmpdir(), 'loomverse-test-')))
}
