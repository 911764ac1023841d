import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs'

export interface HostRecord {
  url: string
  port: number
  pid: number
  token: string
  started_at: string
}

/**
 * `$LOOMVERSE_HOME/host.json` tells local scripts where the running host is and how to
 * authenticate. It holds the token, so only the owner may read it.
 */
export function writeHostFile(file: string, record: HostRecord): void {
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 })
  chmodSync(file, 0o600) // the mode above is ignored when the file already existed
}

/** Removes the file only if it still describes this process: a newer host may own it now. */
export function removeHostFile(file: string, pid: number): void {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<HostRecord>
    if (record.pid === pid) rmSync(file)
  } catch {
    // already gone or unreadable: nothing of ours to remove
  }
}
