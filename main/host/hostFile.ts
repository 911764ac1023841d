import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { pidAlive } from '../kernel/pidAlive'

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

/** Removes the file only if it still describes this host: another may own it now. */
export function removeHostFile(file: string, ours: Pick<HostRecord, 'pid' | 'port' | 'token'>): void {
  const record = readHostFile(file)
  if (record && record.pid === ours.pid && record.port === ours.port && record.token === ours.token) {
    rmSync(file, { force: true })
  }
}

export function readHostFile(file: string): Partial<HostRecord> | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<HostRecord>
  } catch {
    return null // absent or unreadable: no host to speak of
  }
}

/**
 * The host a home's host.json describes, if it is still running: its process is alive and
 * its port answers (a pid alone could belong to another program since a crash). Null otherwise.
 */
export async function liveHost(file: string, timeoutMs = 2000): Promise<{ pid: number; port: number } | null> {
  const record = readHostFile(file)
  if (!record || typeof record.pid !== 'number' || typeof record.port !== 'number') return null
  if (!pidAlive(record.pid)) return null
  const { pid, port } = record
  const answers = await new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
  return answers ? { pid, port } : null
}
