import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FlowSummary, In, Method, Out } from '@shared/contract'
import { startCore, type Core } from '../core'
import { appSchema } from '../appSchema'
import { previousReleaseSteps } from '../../tests/support/previousRelease/previousReleaseSteps'
import { openDatabase } from '../db/open'
import { RESTORABLE_MS } from './graphService'
import { useTempHome } from '../../tests/support/tempHome'

// The conversation list as the host serves it, on a real loomverse.db file through the router
// (input checked by the contract's zod schemas, as every transport does).

const home = useTempHome()
let core: Core | null = null
afterEach(async () => {
  await core?.dispose()
  core = null
  vi.useRealTimers()
})

function open(): Core {
  core = startCore({ home: home(), mode: 'browser', checkOutput: true })
  return core
}

async function call<M extends Method>(c: Core, method: M, input: In<M>): Promise<Out<M>> {
  const result = await c.router.call(method, input, { transport: 'internal' })
  if (!result.ok) throw new Error(`${method}: ${result.error.code}: ${result.error.message}`)
  return result.value as Out<M>
}

async function failure(c: Core, method: Method, input: unknown): Promise<{ code: string; message: string }> {
  const result = await c.router.call(method, input, { transport: 'internal' })
  if (result.ok) throw new Error(`${method} succeeded`)
  return result.error
}

const byId = (flows: FlowSummary[], id: string) => flows.find((f) => f.id === id)

describe('list_flows', () => {
  it('gives each conversation its persona, node count, last activity (its newest node) and pin, pinned first', async () => {
    // Only the clock is fake, so each step below is a second after the one before.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2025-05-09T06:48:06.000Z') })
    const tick = () => vi.advanceTimersByTime(1000)
    const c = open()
    const sora = await call(c, 'create_persona', { name: 'Sora' })
    const older = await call(c, 'create_flow', { name: 'Older', persona_id: sora.id })
    tick()
    const newer = await call(c, 'create_flow', { name: 'Newer' })
    tick()
    const empty = await call(c, 'create_flow', { name: 'Empty' })
    tick()
    const first = await call(c, 'create_node', { flow_id: older.id, prompt: 'one' })
    tick()
    await call(c, 'create_node', { flow_id: older.id, prompt: 'two', parent_ids: [first.id] })
    tick()
    const latest = await call(c, 'create_node', { flow_id: newer.id, prompt: 'three' })

    let flows = await call(c, 'list_flows', {})
    const last = (await call(c, 'get_node', { id: latest.id })).timestamp
    expect(byId(flows, newer.id)).toMatchObject({ node_count: 1, last_activity: last, pinned: false, persona_id: null })
    expect(byId(flows, older.id)).toMatchObject({ node_count: 2, persona_id: sora.id, name_source: 'user' })
    // A flow with no nodes was last active when it was made.
    expect(byId(flows, empty.id)).toMatchObject({ node_count: 0, last_activity: empty.created })
    // Newest activity first: a conversation's own edits (a rename, a move on the canvas) do not reorder it.
    tick()
    await call(c, 'update_flow', { id: empty.id, description: 'renamed later' })
    expect(flows.map((f) => f.name)).toEqual(['Newer', 'Older', 'Empty'])
    expect((await call(c, 'list_flows', {})).map((f) => f.name)).toEqual(['Newer', 'Older', 'Empty'])

    // Pinning persists, and the pinned conversation comes first whatever its activity.
    await call(c, 'update_flow', { id: older.id, pinned: true })
    await c.dispose()
    const reopened = open()
    flows = await call(reopened, 'list_flows', {})
    expect(flows[0]).toMatchObject({ id: older.id, pinned: true })
    await call(reopened, 'update_flow', { id: older.id, pinned: false })
    expect((await call(reopened, 'list_flows', {})).map((f) => [f.name, f.pinned])).toEqual([
      ['Newer', false],
      ['Older', false],
      ['Empty', false],
    ])
  })

  it('keeps each count right through deletes, undo, sharing and deleting another flow', async () => {
    const c = open()
    const flow = await call(c, 'create_flow', { name: 'Counted' })
    const other = await call(c, 'create_flow', { name: 'Other' })
    const root = await call(c, 'create_node', { flow_id: flow.id, prompt: 'root' })
    const child = await call(c, 'create_node', { flow_id: flow.id, prompt: 'child', parent_ids: [root.id] })
    await call(c, 'create_node', { flow_id: flow.id, prompt: 'grandchild', parent_ids: [child.id] })
    const count = async (id: string) => byId(await call(c, 'list_flows', {}), id)?.node_count
    const members = async (id: string) => (await call(c, 'get_flow', { id })).nodes.length
    expect(await count(flow.id)).toBe(3)

    await call(c, 'delete_node', { flow_id: flow.id, id: child.id, mode: 'subtree' })
    expect(await count(flow.id)).toBe(1)
    await call(c, 'graph_undo', { flow_id: flow.id })
    expect(await count(flow.id)).toBe(await members(flow.id))
    expect(await count(flow.id)).toBe(3)

    await call(c, 'add_node_to_flow', { flow_id: other.id, node_id: root.id })
    expect([await count(flow.id), await count(other.id)]).toEqual([3, 1])
    await call(c, 'delete_flow', { id: flow.id })
    expect(await count(other.id)).toBe(1)
  })

  it('refuses a pin that is not true or false, naming the field, and changes nothing', async () => {
    const c = open()
    const flow = await call(c, 'create_flow', { name: 'Kept' })
    const error = await failure(c, 'update_flow', { id: flow.id, pinned: 'yes' })
    expect(error.code).toBe('bad_input')
    expect(error.message).toMatch(/^update_flow: pinned: /)
    expect(byId(await call(c, 'list_flows', {}), flow.id)).toMatchObject({ pinned: false })
  })
})

describe('names from the first prompt', () => {
  it('names a new conversation from its first prompt with text, once', async () => {
    const c = open()
    const flow = await call(c, 'create_flow', { name: 'New conversation', name_from_prompt: true })
    expect(byId(await call(c, 'list_flows', {}), flow.id)).toMatchObject({ name_source: 'placeholder' })
    // A picture sent alone has no words to name it by.
    const picture = await call(c, 'create_node', { flow_id: flow.id, prompt: '' })
    expect(byId(await call(c, 'list_flows', {}), flow.id)?.name).toBe('New conversation')
    await call(c, 'create_node', {
      flow_id: flow.id,
      prompt: 'Plan a weekend in Kyoto with temples, gardens and the best tofu\nin November',
      parent_ids: [picture.id],
    })
    await call(c, 'create_node', { flow_id: flow.id, prompt: 'And Osaka?' })
    expect(byId(await call(c, 'list_flows', {}), flow.id)).toMatchObject({
      name: 'Plan a weekend in Kyoto with temples…',
      name_source: 'prompt',
    })
  })

  it('never replaces a name the user gave, before or after the first prompt', async () => {
    const c = open()
    const early = await call(c, 'create_flow', { name: 'New conversation', name_from_prompt: true })
    await call(c, 'update_flow', { id: early.id, name: 'My trip' })
    await call(c, 'create_node', { flow_id: early.id, prompt: 'Where should I go?' })
    expect(byId(await call(c, 'list_flows', {}), early.id)).toMatchObject({ name: 'My trip', name_source: 'user' })

    const late = await call(c, 'create_flow', { name: 'New conversation', name_from_prompt: true })
    await call(c, 'create_node', { flow_id: late.id, prompt: '今日は東京で桜を見ました' })
    // The settings dialog sends the name back unchanged: that is not the user naming it.
    await call(c, 'update_flow', { id: late.id, name: '今日は東京で桜を見ました', description: 'spring' })
    expect(byId(await call(c, 'list_flows', {}), late.id)).toMatchObject({ name_source: 'prompt' })
    await call(c, 'update_flow', { id: late.id, name: 'Sakura' })
    expect(byId(await call(c, 'list_flows', {}), late.id)).toMatchObject({ name: 'Sakura', name_source: 'user' })
  })

  it('names the conversations an older version called "New conversation" from their first prompt when migrating', () => {
    const path = join(home(), 'old.db')
    const old = openDatabase(path, { migrations: previousReleaseSteps(appSchema).slice(0, 29), label: 'old.db' }).db
    const flow = old.prepare(
      `INSERT INTO flows (id, name, created, updated) VALUES (?, ?, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`,
    )
    const node = old.prepare(`INSERT INTO nodes (id, timestamp, prompt) VALUES (?, '2025-01-01T00:00:00.000Z', ?)`)
    const member = old.prepare('INSERT INTO flow_nodes (flow_id, node_id, idx) VALUES (?, ?, ?)')
    const ids = ['a', 'b', 'c', 'd'].map((x) => `00000000-0000-4000-8000-00000000000${x}`)
    flow.run(ids[0], 'New conversation')
    flow.run(ids[1], '新しい会話')
    flow.run(ids[2], 'New conversation')
    flow.run(ids[3], 'Trip')
    node.run('10000000-0000-4000-8000-000000000001', '\n明日は京都へ行きます')
    node.run('10000000-0000-4000-8000-000000000002', '  ')
    node.run('10000000-0000-4000-8000-000000000003', 'Second, the real first words')
    node.run('10000000-0000-4000-8000-000000000004', 'Not a name')
    member.run(ids[0], '10000000-0000-4000-8000-000000000002', 1)
    member.run(ids[0], '10000000-0000-4000-8000-000000000003', 2)
    member.run(ids[1], '10000000-0000-4000-8000-000000000001', 1)
    member.run(ids[3], '10000000-0000-4000-8000-000000000004', 1)
    old.close()

    const { db } = openDatabase(path, { domains: appSchema, label: 'old.db' })
    const rows = db.prepare('SELECT name, name_source, pinned FROM flows ORDER BY id').all()
    db.close()
    expect(rows).toEqual([
      { name: 'Second, the real first words', name_source: 'prompt', pinned: 0 },
      { name: '明日は京都へ行きます', name_source: 'prompt', pinned: 0 },
      { name: 'New conversation', name_source: 'placeholder', pinned: 0 },
      { name: 'Trip', name_source: 'user', pinned: 0 },
    ])
  })
})

describe('deleting with Undo', () => {
  it('hides a trashed conversation at once and restores it whole, nodes and all', async () => {
    const c = open()
    const events: string[] = []
    c.bus.listen((event) => events.push(event))
    const flow = await call(c, 'create_flow', { name: 'Keep me' })
    const root = await call(c, 'create_node', { flow_id: flow.id, prompt: 'root', response: 'hello' })
    await call(c, 'create_node', { flow_id: flow.id, prompt: 'child', parent_ids: [root.id] })
    await call(c, 'update_flow', { id: flow.id, pinned: true })
    const before = await call(c, 'load_flow', { id: flow.id })

    const trashed = await call(c, 'trash_flow', { id: flow.id })
    expect(Date.parse(trashed.restorable_until)).toBeGreaterThan(Date.now())
    expect(events).toContain('flow_deleted')
    expect(byId(await call(c, 'list_flows', {}), flow.id)).toBeUndefined()
    expect((await failure(c, 'trash_flow', { id: flow.id })).code).toBe('not_found')

    await call(c, 'restore_flow', { id: flow.id })
    expect(byId(await call(c, 'list_flows', {}), flow.id)).toMatchObject({ node_count: 2, pinned: true })
    expect(await call(c, 'load_flow', { id: flow.id })).toEqual(before)
    expect((await failure(c, 'restore_flow', { id: flow.id })).code).toBe('not_found')
  })

  it('removes a trashed conversation for good once its Undo has run out, also after a restart', async () => {
    const c = open()
    const gone = await call(c, 'create_flow', { name: 'Gone' })
    const node = await call(c, 'create_node', { flow_id: gone.id, prompt: 'bye' })
    await call(c, 'trash_flow', { id: gone.id })
    expect(c.graph.purgeDeleted(Date.now() + RESTORABLE_MS + 1)).toEqual([gone.id])
    expect((await failure(c, 'restore_flow', { id: gone.id })).code).toBe('not_found')
    expect((await failure(c, 'get_node', { id: node.id })).code).toBe('not_found')

    // Trashed before a stop, past its time at the next start: purged as the graph opens.
    const late = await call(c, 'create_flow', { name: 'Late' })
    await call(c, 'trash_flow', { id: late.id })
    c.db
      .prepare('UPDATE flows SET deleted = ? WHERE id = ?')
      .run(new Date(Date.now() - RESTORABLE_MS - 1).toISOString(), late.id)
    await c.dispose()
    const reopened = open()
    expect((await failure(reopened, 'restore_flow', { id: late.id })).code).toBe('not_found')
  })

  it('keeps a trashed conversation out of the External lookup, so programs start a new one', async () => {
    const c = open()
    const sora = await call(c, 'create_persona', { name: 'Sora' })
    const first = await call(c, 'chat_target', { persona_id: sora.id })
    await call(c, 'trash_flow', { id: first.flow_id })
    const second = await call(c, 'chat_target', { persona_id: sora.id })
    expect(second.flow_id).not.toBe(first.flow_id)
  })

  it('refuses an id that is not a conversation id with bad_input naming it', async () => {
    const c = open()
    const error = await failure(c, 'trash_flow', { id: 'not-an-id' })
    expect(error).toMatchObject({ code: 'bad_input' })
    expect(error.message).toMatch(/^trash_flow: id: /)
  })
})
