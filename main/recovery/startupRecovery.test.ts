import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { Flow, Node } from '@shared/contract'
import { JobQueue } from '../kernel/jobs/jobQueue'
import { openMemory } from '../memory/store/db'
import { leaveInstanceFile } from '../../tests/support/crashLeftovers'
import { useLlmCore } from '../../tests/support/llmCore'

const start = useLlmCore()

/** A home whose last process was killed mid-reply: the node is still `streaming` on disk. */
async function homeWithCutReply() {
  const first = await start()
  const flow = await first.call<Flow>('create_flow', { name: 'crash' })
  const parent = await first.call<Node>('create_node', { flow_id: flow.id, prompt: '京都は？', response: '関西です。' })
  const cut = await first.call<Node>('create_node', {
    flow_id: flow.id,
    prompt: 'おすすめは？',
    response: '',
    parent_ids: [parent.id],
  })
  const home = first.core.paths.home
  await first.core.dispose()
  // What the killed process left: the reply half written, its run/ file, a claimed job.
  const db = new Database(join(home, 'loomverse.db'))
  db.prepare("UPDATE nodes SET status = 'streaming', response = '清水寺と', summary_updated = 0 WHERE id = ?").run(
    cut.id,
  )
  const queue = new JobQueue(db)
  queue.enqueue('graph.summarize', { node_id: parent.id, language: 'ja' })
  queue.claim()
  db.close()
  return { home, flow, cut }
}

describe('start-up after a crash', () => {
  it('removes a conversation an import had not finished writing, and nothing else', async () => {
    const first = await start()
    const kept = await first.call<Flow>('create_flow', { name: 'kept' })
    const shared = await first.call<Node>('create_node', { flow_id: kept.id, prompt: 'stay', response: 'here' })
    // An import killed between two slices: its flow still marked, two nodes written, and a
    // node of another flow put in it too.
    const store = first.core.graph.store
    const half = randomUUID()
    store.insertFlow({
      id: half,
      name: 'half imported',
      description: '',
      persona_id: null,
      now: '2025-01-01T00:00:00Z',
    })
    store.beginFlowImport(half, '2025-01-01T00:00:00Z')
    const written = [randomUUID(), randomUUID()]
    for (const id of written) {
      store.insertNode({
        id,
        timestamp: '2025-01-01T00:00:00Z',
        prompt: 'imported',
        response: 'text',
        model: 'chatgpt',
      })
      store.addMember(half, id, null)
    }
    store.addMember(half, shared.id, null)
    expect((await first.call<Array<{ id: string }>>('list_flows', {})).map((f) => f.id)).toEqual([kept.id])
    const home = first.core.paths.home
    await first.core.dispose()

    const h = await start({ home })
    expect(h.core.recovered).toMatchObject({ imports: 1 })
    expect(h.core.db.prepare('SELECT count(*) FROM flows WHERE id = ?').pluck().get(half)).toBe(0)
    for (const id of written)
      expect(await h.core.router.call('get_node', { id }, { transport: 'internal' })).toMatchObject({ ok: false })
    expect(await h.call<Node>('get_node', { id: shared.id })).toMatchObject({ prompt: 'stay', response: 'here' })
    expect((await h.call<Flow>('get_flow', { id: kept.id })).nodes.map((m) => m.id)).toEqual([shared.id])
  })

  it('turns a reply cut mid-stream into an incomplete one that Continue finishes through the router', async () => {
    const { home, cut } = await homeWithCutReply()
    const stale = leaveInstanceFile(home)
    const h = await start({ home })
    expect(existsSync(stale)).toBe(false) // the dead process's file is gone
    const recovered = await h.call<Node>('get_node', { id: cut.id })
    expect(recovered).toMatchObject({ status: 'incomplete', response: '清水寺と', error: null })
    expect(recovered.metadata.summary.updated).toBe(true)
    expect(h.core.recovered).toMatchObject({ replies: 1, jobs: 1 })

    h.fake.script({ provider: 'openai', reply: '伏見稲荷です。' })
    const done = h.next('chat_status', (s) => s.node_id === cut.id && ['done', 'failed'].includes(s.state))
    await h.call('chat_continue', { node_id: cut.id })
    expect(await done).toMatchObject({ state: 'done' })
    expect(await h.call<Node>('get_node', { id: cut.id })).toMatchObject({
      status: 'complete',
      response: '清水寺と伏見稲荷です。',
    })
  })

  it('lets "Build summaries" take a reply that was cut, which it skipped while it looked like streaming', async () => {
    const { home, flow, cut } = await homeWithCutReply()
    const h = await start({ home })
    const { batch } = await h.call<{ batch: string }>('build_summaries', { flow_id: flow.id })
    const queued = h.core.db
      .prepare('SELECT payload_json FROM jobs WHERE batch = ?')
      .pluck()
      .all(batch)
      .map((p) => JSON.parse(p as string).node_id)
    expect(queued).toContain(cut.id)
  })

  it('makes jobs a crashed process had claimed claimable at once, with no wait for their lease', async () => {
    const { home } = await homeWithCutReply()
    const h = await start({ home })
    expect(h.core.db.prepare('SELECT status, lease_until FROM jobs').all()).toEqual([{ status: 0, lease_until: null }])
    expect(new JobQueue(h.core.db).claim()).not.toBeNull()
  })

  it('does the same for a persona’s memory jobs', async () => {
    const first = await start()
    const persona = await first.call<{ id: string }>('create_persona', { name: 'Mika' })
    const home = first.core.paths.home
    await first.core.dispose()
    mkdirSync(join(home, 'memory'), { recursive: true })
    const store = openMemory(join(home, 'memory', `memory_${persona.id}.db`))
    const queue = new JobQueue(store.db)
    // A kind no handler knows: once released, the memory worker dead-letters it at once.
    const id = queue.enqueue('no_such_kind', {})
    queue.claim()
    store.db.close()

    const h = await start({ home })
    const status = () => {
      const db = new Database(join(home, 'memory', `memory_${persona.id}.db`), { readonly: true })
      try {
        return db.prepare('SELECT status FROM jobs WHERE id = ?').pluck().get(id)
      } finally {
        db.close()
      }
    }
    await expect.poll(status, { timeout: 20_000 }).toBe(3)
    expect(h.core.recovered).not.toBeNull()
  })

  it('leaves a live process’s streaming reply and claimed jobs alone', async () => {
    const { home, cut } = await homeWithCutReply()
    leaveInstanceFile(home, process.ppid) // another process using this home, still running
    const h = await start({ home })
    expect(h.core.recovered).toBeNull()
    expect((await h.call<Node>('get_node', { id: cut.id })).status).toBe('streaming')
    expect(h.core.db.prepare('SELECT status FROM jobs').pluck().all()).toEqual([1])
  })
})

describe('start-up sweep of the item folders', () => {
  it('removes temp files and moves item files no item refers to into the trash, touching nothing else', async () => {
    const first = await start()
    const doc = await first.call<{ id: string; file_path: string }>('document_create', {
      name: 'diary',
      description: 'a diary',
      content: 'kept',
    })
    const home = first.core.paths.home
    await first.core.dispose()
    const orphan = '20260101_120000_0f0e0d0c-0b0a-4987-8654-321012345678.png'
    mkdirSync(join(home, 'image'), { recursive: true })
    writeFileSync(join(home, 'image', orphan), 'bytes of a picture whose item was never saved')
    writeFileSync(join(home, 'image', `${orphan}.summary.txt`), 'its summary')
    writeFileSync(join(home, 'documents', '.tmp-0f0e0d0c-0b0a-4987-8654-321012345678'), 'half a write')
    writeFileSync(join(home, 'documents', 'notes.txt'), 'a file the user put here')
    symlinkSync('/nonexistent', join(home, 'documents', '.tmp-11111111-2222-4333-8444-555555555555'))
    mkdirSync(join(home, 'trash', 'keep'), { recursive: true })
    writeFileSync(join(home, 'trash', 'keep', '.tmp-0f0e0d0c-0b0a-4987-8654-321012345679'), 'half a record')

    const h = await start({ home })
    expect(h.core.recovered).toMatchObject({ temps: 2, orphans: 2 })
    const documents = readdirSync(join(home, 'documents'))
    expect(documents).toEqual(
      expect.arrayContaining(['.tmp-11111111-2222-4333-8444-555555555555', doc.file_path.split('/')[1], 'notes.txt']),
    )
    expect(documents).not.toContain('.tmp-0f0e0d0c-0b0a-4987-8654-321012345678')
    expect(readdirSync(join(home, 'image'))).toEqual([])
    const folder = h.core.recovered!.orphansFolder!
    expect(folder).toMatch(/^trash\/orphans_\d{8}_\d{6}$/)
    expect(readFileSync(join(home, folder, orphan), 'utf8')).toBe('bytes of a picture whose item was never saved')
    expect(readdirSync(join(home, 'trash', 'keep'))).toEqual([])
    expect(JSON.stringify(await h.call('item_view', { item_id: doc.id }))).toContain('kept')
  })
})
