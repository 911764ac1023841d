import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeLlm, type FakeLlm } from '../support/fakeLlm'
import {
  HeardReplies,
  NOTIFICATION_MARK,
  notify,
  requestsWithStatus,
  storedAnswers,
  type Acknowledged,
  type StoredAnswer,
} from '../support/notificationReplies'
import { seededRandom } from '../support/seededRandom'
import { llmEnv, startServer, type Server } from '../support/serveProcess'
import { WireClient } from './wireClient'

export interface KillNotificationsResult {
  suite: 'kill_notifications'
  seed: number
  iterations: number
  /** Notifications the host answered {unit_id} for before it was killed. */
  acknowledged: number
  /** Acknowledged and answered: the reply in the episode, its node in the External flow, the request done. */
  answered: number
  /** Acknowledged but never answered after the last restart (or given up). Must be 0. */
  unanswered: number
  /** Answered more than once: two External-flow nodes, or two replies heard. Must be 0. */
  duplicated: number
  /** Replies the model was writing when the kill came: the case the restart must finish. */
  in_flight_at_kill: number
  /** Answered, but no event was heard: the kill took the event with it (a client learns of it from the flow). */
  unheard: number
  details: string[]
}

/** Notifications sent to each host, a few at a time; the kill comes after a random number of them. */
const PER_ITERATION = 24
const CONCURRENCY = 4
/** How long the last host gets to answer everything acknowledged (far beyond a healthy run's few seconds). */
const FINISH_TIMEOUT_MS = 90_000

/**
 * kill -9 over notifications: the built app on one home takes notifications over HTTP while the
 * model streams its replies, and is SIGKILLed after a random number of acknowledgements —
 * with replies in flight, some waiting, some just written. Each restart takes the next
 * iteration's notifications (and finishes the last one's); a final start lets everything land.
 * Every acknowledged notification must then be answered exactly once.
 */
export async function killNotifications(options: {
  iterations: number
  seed: number
  onIteration?: (i: number, result: KillNotificationsResult) => void
}): Promise<KillNotificationsResult> {
  const random = seededRandom(options.seed)
  const result: KillNotificationsResult = {
    suite: 'kill_notifications',
    seed: options.seed,
    iterations: 0,
    acknowledged: 0,
    answered: 0,
    unanswered: 0,
    duplicated: 0,
    in_flight_at_kill: 0,
    unheard: 0,
    details: [],
  }
  const note = (line: string) => {
    if (result.details.length < 20) result.details.push(line)
  }
  const home = mkdtempSync(join(tmpdir(), 'loomverse-kill-notifications-'))
  const llm = await startFakeLlm()
  const heard = new HeardReplies()
  const acknowledged: Acknowledged[] = []
  let server: Server | null = null
  try {
    let access: Access | null = null
    for (let i = 0; i <= options.iterations; i++) {
      const host = await startHost(llm, home)
      server = host
      access ??= await setUp(host)
      await heard.listen(host.port, access.token)
      host.answer()
      if (i === options.iterations) break // the last start: no kill, everything lands
      const killAfter = 1 + Math.floor(random() * PER_ITERATION)
      const acks = await notifyUntilKilled(server, access, i, killAfter)
      acknowledged.push(...acks)
      result.acknowledged += acks.length
      result.in_flight_at_kill += requestsWithStatus(home, access.personaId, 1)
      result.iterations++
      options.onIteration?.(i, result)
    }
    if (!server || !access) throw new Error('kill_notifications: no host started')
    await allSettled(home, access.personaId, acknowledged).catch((e: Error) => note(e.message))
    await server.stop({ keepHome: true })
    server = null
    for (const a of storedAnswers(home, access.personaId, acknowledged)) {
      const heardTimes = heard.count(a.unitId)
      const ok = answeredOnce(a)
      if (ok) result.answered++
      else {
        result.unanswered++
        note(
          `unit ${a.unitId}: reply ${a.replyText === null ? 'missing' : 'kept'}, ${a.nodes} node(s), status ${a.status}${a.lastError ? ` (${a.lastError})` : ''}`,
        )
      }
      if (a.nodes > 1 || heardTimes > 1) {
        result.duplicated++
        note(`unit ${a.unitId}: ${a.nodes} External-flow nodes, ${heardTimes} replies heard`)
      }
      if (ok && heardTimes === 0) result.unheard++
    }
  } finally {
    heard.close()
    await server?.stop()
    await llm.close()
    rmSync(home, { recursive: true, force: true })
  }
  return result
}

/**
 * Starts the built app on the home. The model's replies wait for `answer()` (called once the
 * host's event stream is heard), then stream in small pieces, so a kill can land mid-reply.
 */
async function startHost(llm: FakeLlm, home: string): Promise<Server & { answer: () => void }> {
  llm.reset()
  let answer!: () => void
  const pieces = Array.from({ length: 12 }, (_, k) => `piece ${k}. `)
  llm.script({
    promptIncludes: NOTIFICATION_MARK,
    reply: pieces.join(''),
    chunks: pieces,
    chunkDelayMs: 15,
    until: new Promise<void>((resolve) => (answer = resolve)),
  })
  return { ...(await startServer({ home, env: llmEnv(llm) })), answer }
}

interface Access {
  personaId: string
  token: string
}

/** The persona that is notified and the program's API token, made through the first host. */
async function setUp(server: Server): Promise<Access> {
  const ui = await WireClient.open(server.wsUrl)
  try {
    const persona = await ui.value<{ id: string }>('create_persona', { name: 'Mika' })
    const { token } = await ui.value<{ token: string }>('api_token_create', { name: 'kill loop' })
    return { personaId: persona.id, token }
  } finally {
    ui.close()
  }
}

/** Keeps CONCURRENCY notifications in flight and kills the host the moment the chosen one is acknowledged. */
async function notifyUntilKilled(server: Server, access: Access, iteration: number, killAfter: number) {
  const acks: Acknowledged[] = []
  let sent = 0
  let killing: Promise<void> | null = null
  const killed = server.exited.then(() => null)
  const sender = async () => {
    while (!killing && sent < PER_ITERATION) {
      const text = `note ${iteration}-${sent++}`
      // A request cut by the kill gets no acknowledgement: its fate is free.
      const ack = await Promise.race([notify(server.port, access.token, access.personaId, text), killed])
      if (!ack || killing) continue
      acks.push(ack)
      if (acks.length >= killAfter) killing = server.kill()
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, sender))
  await (killing ?? server.kill())
  return acks
}

/** Waits until every acknowledged request is done or failed, reading the database as the host writes it. */
async function allSettled(home: string, personaId: string, acknowledged: readonly Acknowledged[]): Promise<void> {
  const deadline = Date.now() + FINISH_TIMEOUT_MS
  for (;;) {
    const open = storedAnswers(home, personaId, acknowledged).filter((a) => a.status !== 4 && !answeredOnce(a))
    if (open.length === 0) return
    if (Date.now() > deadline)
      throw new Error(
        `${open.length} acknowledged notification(s) still open ${FINISH_TIMEOUT_MS / 1000} s after the last start`,
      )
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The reply kept and shown, and the request done (a build without requests: the reply and node alone). */
function answeredOnce(a: StoredAnswer): boolean {
  return a.replyText !== null && a.nodes >= 1 && (a.status === 3 || a.status === null)
}
