import { join } from 'node:path'
import Database from 'better-sqlite3'
import WebSocket from 'ws'
import { homePaths } from '../../main/kernel/home'
import { apiCall } from './apiClient'

// Notifications sent to a host over HTTP (seed 004's /api/notification) and what became of
// them: the replies heard on /api/events/stream, and what the databases hold. Shared by the
// crash test of notifications and the reliability suite's kill loop over them.

/** In the English instruction the persona gets with every notification (chat/requestPrompt.ts): rules match it. */
export const NOTIFICATION_MARK = 'Tell your partner about it'
export const NOTIFICATION_SOURCE = 'probe'

export interface Acknowledged {
  unitId: number
  text: string
}

/** Posts one notification; the acknowledgement, or null when the host did not give one. */
export async function notify(
  port: number,
  apiToken: string,
  personaId: string,
  text: string,
): Promise<Acknowledged | null> {
  const r = await apiCall(port, {
    path: '/api/notification',
    headers: { authorization: `Bearer ${apiToken}` },
    body: { persona_id: personaId, source_system: NOTIFICATION_SOURCE, text },
  })
  if (r.status !== 200) return null
  return { unitId: (r.json() as { unit_id: number }).unit_id, text }
}

/** The `external_reply` messages heard, by unit, over every connection opened with `listen`. */
export class HeardReplies {
  private readonly messages = new Map<number, number>()
  private readonly errors = new Map<number, string>()
  private readonly sockets = new Set<WebSocket>()
  private readonly waiters = new Set<() => void>()

  /** Opens the event stream of a host and counts what it publishes; resolves once it is open. */
  listen(port: number, apiToken: string, timeoutMs = 15_000): Promise<void> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events/stream`, {
      headers: { authorization: `Bearer ${apiToken}` },
    })
    this.sockets.add(ws)
    ws.on('close', () => this.sockets.delete(ws))
    ws.on('error', () => {}) // a killed host drops it: nothing more will be heard from it
    ws.on('message', (raw) => {
      const m = JSON.parse(raw.toString()) as { unit_id: number; type: string; data: Record<string, unknown> }
      if (m.type !== 'notification') return
      if (typeof m.data.message === 'string') this.messages.set(m.unit_id, (this.messages.get(m.unit_id) ?? 0) + 1)
      else this.errors.set(m.unit_id, String(m.data.error))
      for (const w of [...this.waiters]) w()
    })
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the event stream did not open in ${timeoutMs} ms`)), timeoutMs)
      ws.once('open', () => {
        clearTimeout(timer)
        resolve()
      })
      ws.once('error', (e) => {
        clearTimeout(timer)
        reject(e)
      })
    })
  }

  /** How many replies (not errors) were heard for the unit. */
  count(unitId: number): number {
    return this.messages.get(unitId) ?? 0
  }

  error(unitId: number): string | undefined {
    return this.errors.get(unitId)
  }

  /** Resolves once a reply has been heard for every unit, rejecting after the timeout. */
  all(unitIds: readonly number[], timeoutMs: number): Promise<void> {
    const missing = () => unitIds.filter((id) => this.count(id) === 0 && !this.errors.has(id))
    return new Promise((resolve, reject) => {
      const check = () => {
        if (missing().length > 0) return
        clearTimeout(timer)
        this.waiters.delete(check)
        resolve()
      }
      const timer = setTimeout(() => {
        this.waiters.delete(check)
        reject(new Error(`no reply heard in ${timeoutMs} ms for units ${missing().join(', ')}`))
      }, timeoutMs)
      this.waiters.add(check)
      check()
    })
  }

  close(): void {
    for (const ws of this.sockets) ws.close()
  }
}

/** One acknowledged notification as the databases hold it after the last restart. */
export interface StoredAnswer {
  unitId: number
  replyText: string | null
  /** Its nodes in the External flow (found by their prompt): 1 once answered. */
  nodes: number
  /** external_requests.status (migration 0011): 3 done, 4 failed; null when no row (or no such table). */
  status: number | null
  lastError: string | null
}

/** Reads each acknowledged notification's episode, request and External-flow nodes from the home's files. */
export function storedAnswers(home: string, personaId: string, acknowledged: readonly Acknowledged[]): StoredAnswer[] {
  const paths = homePaths(home)
  const memory = new Database(join(paths.memory, `memory_${personaId}.db`), { readonly: true })
  const app = new Database(paths.db, { readonly: true })
  try {
    const reply = memory.prepare('SELECT reply_text FROM payload_episode WHERE unit_id = ?').pluck()
    // Before migration 0011 (an older build under test) there is no request to read.
    const request = hasRequests(memory)
      ? memory.prepare('SELECT status, last_error FROM external_requests WHERE unit_id = ?')
      : { get: () => undefined }
    const nodes = app.prepare('SELECT count(*) FROM nodes WHERE prompt = ?').pluck()
    return acknowledged.map((a) => {
      const row = request.get(a.unitId) as { status: number; last_error: string | null } | undefined
      return {
        unitId: a.unitId,
        replyText: (reply.get(a.unitId) as string | null | undefined) ?? null,
        nodes: nodes.get(`[${NOTIFICATION_SOURCE}] ${a.text}`) as number,
        status: row?.status ?? null,
        lastError: row?.last_error ?? null,
      }
    })
  } finally {
    memory.close()
    app.close()
  }
}

/** How many of the persona's requests stand at this status (1: a reply was being written). */
export function requestsWithStatus(home: string, personaId: string, status: number): number {
  const memory = new Database(join(homePaths(home).memory, `memory_${personaId}.db`), { readonly: true })
  try {
    if (!hasRequests(memory)) return 0
    return memory.prepare('SELECT count(*) FROM external_requests WHERE status = ?').pluck().get(status) as number
  } finally {
    memory.close()
  }
}

function hasRequests(memory: Database.Database): boolean {
  return memory.prepare("SELECT 1 FROM sqlite_master WHERE name = 'external_requests'").get() !== undefined
}
