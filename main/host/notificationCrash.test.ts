import { afterEach, describe, expect, it } from 'vitest'
import { WireClient } from '../../tests/reliability/wireClient'
import { startFakeLlm, type FakeLlm } from '../../tests/support/fakeLlm'
import {
  HeardReplies,
  NOTIFICATION_MARK,
  notify,
  storedAnswers,
  type Acknowledged,
} from '../../tests/support/notificationReplies'
import { llmEnv, startServer, type Server } from '../../tests/support/serveProcess'
import { useTempHome } from '../../tests/support/tempHome'

// Issue 37, finding 2: /api/notification answered {unit_id}, then wrote the reply from a promise
// held in memory, so kill -9 lost every reply in flight. Acknowledged now means stored with its
// work: the host, in a process of its own, is killed while the model holds replies, and the
// restarted host answers every acknowledged notification exactly once.

const home = useTempHome()
const open: { llm?: FakeLlm; servers: Server[]; heard?: HeardReplies } = { servers: [] }
afterEach(async () => {
  open.heard?.close()
  for (const s of open.servers.splice(0)) await s.stop({ keepHome: true })
  await open.llm?.close()
})

const NOTIFICATIONS = 8
/** The host answers four at a time (chat/externalReplies.ts): two answered, four held, two waiting behind them. */
const ANSWERED_BEFORE_KILL = 2
const HELD_AT_KILL = 4

const askedModel = (llm: FakeLlm) =>
  llm.requests.filter((r) => JSON.stringify(r.body).includes(NOTIFICATION_MARK)).length

describe('notifications across kill -9 of the host', () => {
  it(
    'answers every acknowledged notification once after a restart: reply kept, one External node, one event',
    { timeout: 240_000 },
    async () => {
      const dir = home()
      const llm = (open.llm = await startFakeLlm())
      const heard = (open.heard = new HeardReplies())
      const env = llmEnv(llm)
      llm.script({ promptIncludes: NOTIFICATION_MARK, reply: 'Noted before the crash.', times: ANSWERED_BEFORE_KILL })
      llm.script({ promptIncludes: NOTIFICATION_MARK, reply: 'never sent', until: new Promise(() => {}) })

      const first = await startServer({ home: dir, env, fromSource: true })
      open.servers.push(first)
      const ui = await WireClient.open(first.wsUrl)
      const persona = await ui.value<{ id: string }>('create_persona', { name: 'Mika' })
      const { token } = await ui.value<{ token: string }>('api_token_create', { name: 'probe' })
      ui.close()
      await heard.listen(first.port, token)
      const acknowledged: Acknowledged[] = []
      for (let i = 0; i < NOTIFICATIONS; i++) {
        const ack = await notify(first.port, token, persona.id, `note ${i}`)
        expect(ack).not.toBeNull()
        acknowledged.push(ack!)
      }
      const units = acknowledged.map((a) => a.unitId)
      await expect
        .poll(() => units.filter((id) => heard.count(id) > 0).length, { timeout: 30_000 })
        .toBe(ANSWERED_BEFORE_KILL)
      await expect
        .poll(() => askedModel(llm), { timeout: 30_000 })
        .toBeGreaterThanOrEqual(ANSWERED_BEFORE_KILL + HELD_AT_KILL)
      await first.kill()
      open.servers.splice(0)

      // The restarted host's replies wait until its event stream is heard.
      llm.reset()
      let listening!: () => void
      llm.script({
        promptIncludes: NOTIFICATION_MARK,
        reply: 'Noted after the restart.',
        until: new Promise<void>((resolve) => (listening = resolve)),
      })
      const second = await startServer({ home: dir, env, fromSource: true })
      open.servers.push(second)
      await heard.listen(second.port, token)
      listening()
      await heard.all(units, 60_000)
      await second.stop({ keepHome: true })
      open.servers.splice(0)

      // The two answered before the kill were not asked again; the six others once each.
      expect(askedModel(llm)).toBe(NOTIFICATIONS - ANSWERED_BEFORE_KILL)
      expect(units.map((id) => [id, heard.count(id), heard.error(id)])).toEqual(units.map((id) => [id, 1, undefined]))
      const stored = storedAnswers(dir, persona.id, acknowledged)
      expect(stored.map((s) => [s.unitId, s.nodes, s.status])).toEqual(units.map((id) => [id, 1, 3]))
      const replies = stored.map((s) => s.replyText).sort()
      expect(replies).toEqual(
        [
          ...Array<string>(ANSWERED_BEFORE_KILL).fill('Noted before the crash.'),
          ...Array<string>(NOTIFICATIONS - ANSWERED_BEFORE_KILL).fill('Noted after the restart.'),
        ].sort(),
      )
    },
  )
})
