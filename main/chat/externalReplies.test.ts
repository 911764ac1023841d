import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { NOTIFICATION_MARK } from '../../tests/support/notificationReplies'
import { useLlmCore, type LlmHarness } from '../../tests/support/llmCore'

// Notifications as durable work (issue 37): stored with what answering needs, retried with
// back-off when the model fails, cut and kept when the app stops, finished once after a start.

// Memory's queue settings: a failed reply is tried again at once, three tries in all.
const start = useLlmCore({ memory: { queue: { backoffSeconds: 0, maxTries: 3 } } })

interface RequestRow {
  status: number
  tries: number
  last_error: string | null
  request_json: string | null
  node_id: string | null
}

function memoryFile(h: LlmHarness, personaId: string): string {
  return join(h.core.paths.memory, `memory_${personaId}.db`)
}

/** The request's row as the database holds it. */
function requestRow(h: LlmHarness, personaId: string, unitId: number): RequestRow {
  const db = new Database(memoryFile(h, personaId), { readonly: true })
  try {
    return db.prepare('SELECT * FROM external_requests WHERE unit_id = ?').get(unitId) as RequestRow
  } finally {
    db.close()
  }
}

const asked = (h: LlmHarness) =>
  h.fake.requests.filter((r) => JSON.stringify(r.body).includes(NOTIFICATION_MARK)).length

async function withPersona(given?: Parameters<ReturnType<typeof useLlmCore>>[0]) {
  const h = await start({ language: 'en', ...given })
  const persona = await h.call<{ id: string }>('create_persona', { name: 'Mika' })
  const notify = (text: string) =>
    h.call<{ unit_id: number }>('memory_notify', { persona_id: persona.id, source_system: 'calendar', text })
  return { h, persona: persona.id, notify }
}

describe('notifications and meta requests as durable work', () => {
  it('stores the request with its placeholder before the reply, and lets its words go once answered', async () => {
    const { h, persona, notify } = await withPersona()
    let release!: () => void
    h.fake.script({
      promptIncludes: NOTIFICATION_MARK,
      reply: 'Dentist at three.',
      until: new Promise<void>((r) => (release = r)),
    })
    const { unit_id: unitId } = await notify('Dentist 15:00')
    const held = requestRow(h, persona, unitId)
    expect(held).toMatchObject({ status: 1, tries: 0 })
    expect(JSON.parse(held.request_json!)).toMatchObject({
      type: 'notification',
      source_system: 'calendar',
      text: 'Dentist 15:00',
      language: 'en',
    })
    const replied = h.next('external_reply', (r) => r.unit_id === unitId)
    release()
    expect((await replied).data).toEqual({ system_text: 'Dentist 15:00', message: 'Dentist at three.' })
    expect(requestRow(h, persona, unitId)).toMatchObject({ status: 3, request_json: null, node_id: expect.any(String) })
  })

  it('tries again after a model failure and answers once', async () => {
    const { h, persona, notify } = await withPersona()
    h.fake.script({ promptIncludes: NOTIFICATION_MARK, status: 503, times: 1 })
    h.fake.script({ promptIncludes: NOTIFICATION_MARK, reply: 'Second time lucky.' })
    const replied = h.next('external_reply')
    const { unit_id: unitId } = await notify('Parcel delivered')
    expect(await replied).toMatchObject({ unit_id: unitId, data: { message: 'Second time lucky.' } })
    expect(asked(h)).toBe(2)
    expect(requestRow(h, persona, unitId)).toMatchObject({ status: 3, tries: 1, last_error: null })
  })

  it('gives up at once when the model refuses, and after the last try when it keeps failing, keeping the reason', async () => {
    const { h, persona, notify } = await withPersona()
    h.fake.script({ promptIncludes: 'refused', status: 401 })
    h.fake.script({ promptIncludes: 'unavailable', status: 503 })
    const refusedReply = h.next('external_reply', (r) => r.data.error !== undefined)
    const refused = await notify('refused')
    expect(await refusedReply).toMatchObject({
      unit_id: refused.unit_id,
      data: { error: expect.stringMatching(/key/i) },
    })
    expect(requestRow(h, persona, refused.unit_id)).toMatchObject({
      status: 4,
      tries: 1,
      request_json: null,
      last_error: expect.stringMatching(/key/i),
    })

    const downReply = h.next('external_reply', (r) => r.data.error !== undefined)
    const down = await notify('unavailable')
    expect(await downReply).toMatchObject({ unit_id: down.unit_id })
    expect(requestRow(h, persona, down.unit_id)).toMatchObject({ status: 4, tries: 3, last_error: expect.any(String) })
    expect(asked(h)).toBe(1 + 3)
    const unit = await h.call<{ payload: { reply_text: unknown } }>('memory_get_unit', {
      persona_id: persona,
      unit_id: down.unit_id,
    })
    expect(unit.payload.reply_text).toBeNull()
  })

  it('keeps a reply cut by the app stopping, not failed, and answers it at the next start', async () => {
    const { h, persona, notify } = await withPersona()
    h.fake.script({ promptIncludes: NOTIFICATION_MARK, reply: 'never sent', until: new Promise(() => {}) })
    const { unit_id: unitId } = await notify('Rain at noon')
    await expect.poll(() => asked(h), { timeout: 15_000 }).toBe(1)
    const home = h.core.paths.home
    await h.core.dispose()
    expect(requestRow(h, persona, unitId)).toMatchObject({ status: 0, tries: 0, last_error: null })

    const again = await start({ home })
    again.fake.script({ promptIncludes: NOTIFICATION_MARK, reply: 'Take an umbrella.' })
    const replied = await again.next('external_reply', (r) => r.unit_id === unitId)
    expect(replied.data).toEqual({ system_text: 'Rain at noon', message: 'Take an umbrella.' })
  })

  it('keeps a meta request cut by the app stopping, with its payload, and answers it once at the next start', async () => {
    const { h, persona } = await withPersona()
    h.fake.script({ promptIncludes: 'agenda text', reply: 'never sent', until: new Promise(() => {}) })
    const { unit_id: unitId } = await h.call<{ unit_id: number }>('memory_meta_request', {
      persona_id: persona,
      instruction: 'Summarise for the user',
      payload_text: 'the agenda text: three meetings',
    })
    await expect
      .poll(() => h.fake.requests.filter((r) => JSON.stringify(r.body).includes('agenda text')).length, {
        timeout: 15_000,
      })
      .toBe(1)
    const home = h.core.paths.home
    await h.core.dispose()
    expect(requestRow(h, persona, unitId)).toMatchObject({ status: 0, tries: 0, last_error: null })

    const again = await start({ home })
    again.fake.script({ promptIncludes: 'agenda text', reply: 'Three meetings tomorrow.' })
    const replied = await again.next('external_reply', (r) => r.unit_id === unitId)
    expect(replied).toMatchObject({ type: 'meta_request', data: { message: 'Three meetings tomorrow.' } })
    // Answered once; the payload is let go with the request, as the unit never held it.
    await expect.poll(() => requestRow(again, persona, unitId).status, { timeout: 15_000 }).toBe(3)
    expect(requestRow(again, persona, unitId).request_json).toBeNull()
    expect(again.fake.requests.filter((r) => JSON.stringify(r.body).includes('agenda text'))).toHaveLength(1)
  })

  it('writes the External node of a reply kept before a crash only when the graph lacks it', async () => {
    const { h, persona, notify } = await withPersona()
    h.fake.script({ promptIncludes: NOTIFICATION_MARK, reply: 'Got it.' })
    const units: number[] = []
    for (const text of ['shown', 'not shown']) {
      const replied = h.next('external_reply')
      units.push((await notify(text)).unit_id)
      await replied
    }
    const [shown, lost] = units.map((u) => requestRow(h, persona, u))
    // As a crash after the reply's transaction would leave them: replied, words kept; the second node never written.
    const flows = await h.call<Array<{ id: string; name: string }>>('list_flows', {})
    await h.call('delete_node', { flow_id: flows.find((f) => f.name === 'External')!.id, id: lost!.node_id })
    const home = h.core.paths.home
    await h.core.dispose()
    const db = new Database(memoryFile(h, persona))
    for (const [unitId, text] of [
      [units[0], 'shown'],
      [units[1], 'not shown'],
    ] as const) {
      const request = { type: 'notification', persona_id: persona, source_system: 'calendar', text, language: 'en' }
      db.prepare('UPDATE external_requests SET status = 2, request_json = ? WHERE unit_id = ?').run(
        JSON.stringify(request),
        unitId,
      )
    }
    db.close()

    const again = await start({ home })
    await expect.poll(() => units.map((u) => requestRow(again, persona, u).status), { timeout: 15_000 }).toEqual([3, 3])
    expect(requestRow(again, persona, units[0]!).node_id).toBe(shown!.node_id)
    expect(requestRow(again, persona, units[1]!).node_id).not.toBe(lost!.node_id)
    const prompts = again.core.db
      .prepare("SELECT prompt FROM nodes WHERE prompt LIKE '[calendar]%' ORDER BY prompt")
      .pluck()
      .all()
    expect(prompts).toEqual(['[calendar] not shown', '[calendar] shown'])
    expect(asked(again)).toBe(0)
    const heard = again.events
      .filter((e) => e.event === 'external_reply')
      .map((e) => (e.data as { unit_id: number }).unit_id)
    expect(heard.sort()).toEqual(units)
  })
})
