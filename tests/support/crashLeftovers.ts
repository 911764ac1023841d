import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The pid of a process that has already exited (and so cannot be alive). */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''])
  return child.pid
}

/**
 * The `run/` file a process using `home` leaves behind when it is killed: a process that has
 * exited for a crash, or `pid` for one that is still alive.
 */
export function leaveInstanceFile(home: string, pid: number = deadPid()): string {
  const dir = join(home, 'run')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${pid}-0badc0de.instance`)
  writeFileSync(file, JSON.stringify({ pid, started_at: new Date().toISOString() }))
  return file
}
