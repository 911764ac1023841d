import { randomUUID } from 'node:crypto'
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pidAlive } from '../kernel/pidAlive'

/** Where each process using a data home says so: `run/<pid>-<id>.instance`. */
const INSTANCE_FILE = /^(\d+)-[0-9a-f]{8}\.instance$/
/** How often a live instance touches its file. */
const HEARTBEAT_MS = 60_000
/** A file untouched this long belongs to no live instance, even if its pid is in use again. */
const STALE_MS = 10 * 60_000

export interface Instance {
  /**
   * Whether no other live process (or other core in this process) uses the home: only then
   * may start-up recovery treat running jobs and streaming replies as left by a crash.
   */
  alone: boolean
  /** Removes this instance's file (on a clean stop). */
  release(): void
}

/**
 * Registers this process in the home's `run/` folder and tells whether it is the only live
 * one. The desktop app, `loomverse serve` and one-shot CLI commands may share a home; the
 * leases, streaming replies and half-written files of a live one must never be taken for a
 * crash's. Files of processes that are gone are removed as they are found.
 */
export function registerInstance(runDir: string, options: { isAlive?: (pid: number) => boolean } = {}): Instance {
  const isAlive = options.isAlive ?? pidAlive
  mkdirSync(runDir, { recursive: true, mode: 0o700 })
  const id = `${process.pid}-${randomUUID().slice(0, 8)}`
  const file = join(runDir, `${id}.instance`)
  writeFileSync(file, JSON.stringify({ pid: process.pid, started_at: new Date().toISOString() }) + '\n', {
    mode: 0o600,
  })
  let alone = true
  for (const name of readdirSync(runDir)) {
    const m = INSTANCE_FILE.exec(name)
    if (!m || name === `${id}.instance`) continue
    const other = join(runDir, name)
    if (isLive(other, Number(m[1]), isAlive)) alone = false
    else rmSync(other, { force: true })
  }
  const heartbeat = setInterval(() => {
    const now = new Date()
    try {
      utimesSync(file, now, now)
    } catch {
      // the home went away; nothing to keep alive
    }
  }, HEARTBEAT_MS)
  heartbeat.unref()
  return {
    alone,
    release() {
      clearInterval(heartbeat)
      rmSync(file, { force: true })
    },
  }
}

function isLive(file: string, pid: number, isAlive: (pid: number) => boolean): boolean {
  let touched: number
  try {
    touched = statSync(file).mtimeMs
  } catch {
    return false
  }
  return Date.now() - touched < STALE_MS && isAlive(pid)
}
