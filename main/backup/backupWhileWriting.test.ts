import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BackupResult, EventData, JobProgress, Method, RestoreReport } from '@shared/contract'
import { afterEach, describe, expect, it } from 'vitest'
import { useTempHome } from '../../tests/support/tempHome'
import { startCore, type Core } from '../core'
import { damageDatabase } from '../../tests/support/backupDamage'
import { checkDatabase } from '../db/checkDatabase'

// Issue 37, Done when: "Backup while 10 clients write, restore, compare: every acknowledged
// write is in the restored copy."

const temp = useTempHome()
const cores: Core[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.dispose()
})

function start(home: string, extra: Partial<Parameters<typeof startCore>[0]> = {}): Core {
  const core = startCore({ home, mode: 'browser', log: () => {}, ...extra })
  cores.push(core)
  return core
}

async function call<T>(core: Core, method: Method, input: unknown): Promise<T> {
  const r = await core.router.call(method, input, { transport: 'ws' })
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`)
  return r.value as T
}

/** A turn of the event loop, as a network client's next request would arrive: not a sleep. */
const nextTurn = () => new Promise<void>((r) => setImmediate(r))

interface Ack {
  kind: 'node' | 'unit'
  id: string
  /** Acknowledged before the backup was asked for. */
  before: boolean
  /** The client that wrote it (0 writes memory units, the others nodes). */
  writer: number
}

describe('backup while clients write', () => {
  it('keeps every write acknowledged before the backup began, and of each client a first part of its later ones, in a restored copy that passes integrity_check', async () => {
    const home = join(temp(), 'home')
    const core = start(home)
    const persona = await call<{ id: string }>(core, 'create_persona', { name: 'Aoi' })
    // Enough data that the copy takes many steps while the writers go on.
    for (let i = 0; i < 600; i++) await call(core, 'create_node', { prompt: `seed ${i}`, response: 'r'.repeat(4000) })

    const acks: Ack[] = []
    let backupAsked = false
    let backupDone = false
    let duringBackup = 0
    let stop = false
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const before = !backupAsked
        let ack: Ack
        if (n === 0) {
          const unit = await call<{ unit: { id: string } }>(core, 'memory_add_unit', {
            persona_id: persona.id,
            kind: 'fact',
            text: `fact ${i} from the memory writer`,
          })
          ack = { kind: 'unit', id: unit.unit.id, before, writer: n }
        } else {
          const node = await call<{ id: string }>(core, 'create_node', {
            prompt: `writer ${n} turn ${i}`,
            response: 'ok',
          })
          ack = { kind: 'node', id: node.id, before, writer: n }
        }
        acks.push(ack)
        if (backupAsked && !backupDone) duringBackup++
        await nextTurn()
      }
    }
    const writers = Array.from({ length: 10 }, (_, n) => writer(n))
    while (acks.length < 100) await nextTurn()

    const folder = join(temp(), 'backups')
    backupAsked = true
    const t0 = performance.now()
    const result = await call<BackupResult>(core, 'backup_run', { folder })
    const backupMs = performance.now() - t0
    backupDone = true
    stop = true
    await Promise.all(writers)

    expect(result).toMatchObject({ ok: true, error: null })
    expect(duringBackup).toBeGreaterThan(0)
    const to = join(temp(), 'restored')
    const report = await call<RestoreReport>(core, 'backup_restore', { backup: result.path, to })
    expect(report).toMatchObject({ ok: true, failed: [], home: to })
    for (const file of ['loomverse.db', join('memory', `memory_${persona.id}.db`)])
      expect(await checkDatabase(join(to, file), 'full')).toMatchObject({ ok: true })

    const restored = start(to)
    const expected = acks.filter((a) => a.before)
    const inCopy = new Map<Ack, boolean>()
    for (const ack of acks) {
      const r =
        ack.kind === 'node'
          ? await restored.router.call('get_node', { id: ack.id }, { transport: 'internal' })
          : await restored.router.call(
              'memory_get_unit',
              { persona_id: persona.id, unit_id: ack.id },
              { transport: 'internal' },
            )
      inCopy.set(ack, r.ok)
    }
    const found = expected.filter((a) => inCopy.get(a)).length
    // A consistent copy: of each client's writes it holds a first part, never a later write without an earlier one.
    for (let n = 0; n < 10; n++) {
      const held = acks.filter((a) => a.writer === n).map((a) => inCopy.get(a))
      expect(held.slice(held.indexOf(false)).includes(true), `client ${n}`).toBe(false)
    }
    const duringFound = acks.filter((a) => !a.before && inCopy.get(a)).length
    console.log(
      `[backup] ${(result.bytes / 1e6).toFixed(1)} MB, ${result.databases} databases and ${result.files} files in ${backupMs.toFixed(0)} ms ` +
        `while 10 clients wrote (${duringBackup} writes acknowledged during it); ` +
        `${expected.length} acknowledged before it, ${found} found in the restored copy, and ${duringFound} of those acknowledged during it`,
    )
    expect(found).toBe(expected.length)
    expect(expected.some((a) => a.kind === 'unit')).toBe(true)
  }, 120_000)

  it('a backup whose copy fails verification says so in the status bar and leaves nothing that looks complete', async () => {
    const home = join(temp(), 'home')
    const core = start(home, { backupBeforeVerify: (dir) => damageDatabase(join(dir, 'data', 'loomverse.db')) })
    await call(core, 'create_node', { prompt: 'keep me', response: 'r' })
    const progress: JobProgress[] = []
    const finished: EventData<'backup_finished'>[] = []
    core.bus.listen((event, data) => {
      if (event === 'job_progress') progress.push(data as JobProgress)
      if (event === 'backup_finished') finished.push(data as BackupResult)
    })
    const folder = join(temp(), 'backups')
    const result = await call<BackupResult>(core, 'backup_run', { folder })
    expect(result).toMatchObject({
      ok: false,
      path: null,
      error: expect.stringMatching(/failed verification.*loomverse\.db/),
    })
    expect(progress.at(-1)).toMatchObject({ job_id: 'backup', state: 'failed', error: result.error })
    expect(finished).toEqual([result])
    expect(readdirSync(folder)).toEqual([])
    const status = await call<{ last: BackupResult }>(core, 'backup_status', {})
    expect(status.last).toEqual(result)
  }, 60_000)
})
