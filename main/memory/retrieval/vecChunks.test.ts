import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { useMemoryFiles } from '../../../tests/support/memoryFiles'
import { seededRandom } from '../../../tests/support/seededRandom'
import { nextWrite } from '../../../tests/support/randomWrites'
import { Sensitivity, UnitKind, UnitState } from '../store/enums'
import type { MemoryStore } from '../store/store'
import { VEC_UNITS, vecChunkPages, type VecRow, type VecTable } from './vecChunks'
import { vectorIndexOf } from './vectorIndex'
import { modelIndexOf } from './modelIndex'
import { deleteModelVector, takeDirty, writeModelVectors } from '../store/modelVectors'

// The MemoryPack's vector index loads from sqlite-vec's chunks instead of through vec0. The two
// reads must give the same rows to the byte, whatever was added, edited or deleted.

const memory = useMemoryFiles()

/** Every row as vec0 itself gives it, by id. */
function throughVec0(store: MemoryStore): VecRow[] {
  const rows = store.db
    .prepare('SELECT unit_id, embedding, kind, state, sensitivity FROM vec_units')
    .raw(true)
    .all() as Array<[number, Buffer, number, number, number]>
  return rows.map(([id, e, kind, state, s]) => [Number(id), e, Number(kind), Number(state), Number(s)] as VecRow)
}

/** Every row read from the chunks in one page, or null when that read is not every live row. */
function vecRowsByChunks(db: MemoryStore['db'], table: VecTable): VecRow[] | null {
  const pages = vecChunkPages(db, table)
  const rows: VecRow[] = []
  for (let page = pages.next(); ; page = pages.next()) {
    if (page.done) return page.value === 'complete' ? rows : null
    for (const row of page.value) rows.push(row) // a spread of 100k rows overflows the stack
  }
}

const comparable = (rows: VecRow[]) =>
  rows
    .map(([id, e, kind, state, s]) => [id, Buffer.from(e).toString('base64'), kind, state, s])
    .sort((a, b) => Number(a[0]) - Number(b[0]))

describe("reading sqlite-vec's chunks", () => {
  it(
    'gives what vec0 gives after 2,000 random adds, edits and deletes from two connections (past one chunk of 1,024)',
    { timeout: 120_000 },
    () => {
      const store = memory()
      const other = memory(store.db.name)
      const next = seededRandom(20261125)
      const kinds = [
        UnitKind.EPISODE,
        UnitKind.FACT,
        UnitKind.SUMMARY,
        UnitKind.EPISODE,
        UnitKind.EPISODE,
        UnitKind.EPISODE,
      ]
      for (let i = 0; i < 2000; i++) {
        const { by, id, roll: r } = nextWrite(next, [store, other])
        const kind = i < 1100 ? UnitKind.EPISODE : kinds[Math.floor(next() * kinds.length)]!
        const text = `note ${i} about ${['tea', 'the lake', 'a guitar', 'Kyoto'][i % 4]}`
        if (i < 1100 || r < 0.4 || id === undefined)
          by.createUnit({
            kind,
            payload:
              kind === UnitKind.EPISODE
                ? { user_text: text, reply_text: '' }
                : kind === UnitKind.FACT
                  ? { predicate: 'likes', object_text: text, evidence_unit_ids_json: '[]' }
                  : { scope_type: 1, scope_key: `day:${i}`, summary_text: text },
          })
        else if (r < 0.65) by.editMeta(id, { state: next() < 0.5 ? UnitState.ARCHIVED : UnitState.VALIDATED }, 'test')
        else if (r < 0.75)
          by.editMeta(id, { sensitivity: next() < 0.5 ? Sensitivity.SECRET : Sensitivity.PRIVATE }, 'test')
        else if (r < 0.85 && store.requireUnit(id).kind === UnitKind.EPISODE)
          by.editPayload(id, { user_text: `${text} (edited)` }, 'test')
        else by.deleteUnit(id)
      }
      const chunked = store.db.transaction(() => vecRowsByChunks(store.db, VEC_UNITS)).deferred()
      // The sqlite-vec package.json pins is one this reads: after an upgrade, check the layout
      // and add its version (vecChunks.ts).
      expect(chunked).not.toBeNull()
      expect(chunked!.length).toBeGreaterThan(1000)
      // Episodes fill more than one chunk, with deleted rows' slots left invalid inside them.
      expect(
        store.db.prepare('SELECT count(*) FROM vec_units_chunks WHERE partition00 = 1').pluck().get(),
      ).toBeGreaterThan(1)
      expect(comparable(chunked!)).toEqual(comparable(throughVec0(store)))
      // The index took that road.
      vectorIndexOf(store).rebuild()
      expect(vectorIndexOf(store).stats.loadedFrom).toBe('chunks')
    },
  )

  it("reads only the chunks holding each kind's newest rows when asked, as vec0 holds them", () => {
    const store = memory()
    store.db
      .transaction(() => {
        for (let i = 0; i < 2_500; i++)
          store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: `walk ${i}` } })
        for (let i = 0; i < 50; i++)
          store.createUnit({
            kind: UnitKind.FACT,
            payload: { predicate: 'likes', object_text: `tea ${i}`, evidence_unit_ids_json: '[]' },
          })
      })
      .immediate()
    const read = store.db
      .transaction(() => {
        const pages = vecChunkPages(store.db, VEC_UNITS, 1, 300)
        const rows: VecRow[] = []
        for (let page = pages.next(); ; page = pages.next()) {
          if (page.done) return { rows, how: page.value }
          rows.push(...page.value)
        }
      })
      .deferred()
    expect(read.how).toBe('newest')
    // Episodes fill three chunks of 1,024: the newest (452 rows) holds their newest 300.
    const episodes = read.rows.filter((r) => r[2] === UnitKind.EPISODE)
    expect(episodes.length).toBe(2_500 - 2 * 1_024)
    expect(read.rows.filter((r) => r[2] === UnitKind.FACT)).toHaveLength(50)
    const byVec0 = new Set(comparable(throughVec0(store)).map((r) => JSON.stringify(r)))
    for (const row of comparable(read.rows)) expect(byVec0.has(JSON.stringify(row))).toBe(true)
    // All of them, when the newest asked for are every row.
    const all = store.db.transaction(() => [...vecChunkPages(store.db, VEC_UNITS, 1, 5_000)].flat()).deferred()
    expect(all).toHaveLength(2_550)
  })

  it("gives what vec0 gives for the embedding model's vectors, and the model index loads from it", () => {
    const store = memory()
    const next = seededRandom(11)
    for (let i = 0; i < 1300; i++)
      store.createUnit(
        i % 5
          ? { kind: UnitKind.EPISODE, payload: { user_text: `turn ${i}`, reply_text: '' } }
          : {
              kind: UnitKind.FACT,
              payload: { predicate: 'likes', object_text: `tea ${i}`, evidence_unit_ids_json: '[]' },
            },
      )
    const vectorOf = () => Array.from({ length: 48 }, () => next() - 0.5)
    writeModelVectors(
      store.db,
      'test:model',
      takeDirty(store.db, 2000).map((u) => ({ ...u, vector: vectorOf() })),
    )
    for (let id = 3; id < 1300; id += 9) deleteModelVector(store.db, id)
    const table = { table: 'vec_units_model', dims: 48, metadata: 0 } as const
    const chunked = store.db.transaction(() => vecRowsByChunks(store.db, table)).deferred()
    const viaVec0 = (
      store.db.prepare('SELECT unit_id, embedding, kind FROM vec_units_model').raw(true).all() as Array<
        [number, Buffer, number]
      >
    ).map(([id, e, kind]) => [Number(id), e, Number(kind), 0, 0] as VecRow)
    expect(chunked).not.toBeNull()
    expect(comparable(chunked!)).toEqual(comparable(viaVec0))
    modelIndexOf(store.db).sync()
    expect(modelIndexOf(store.db).stats.loadedFrom).toBe('chunks')
  })

  it('gives way to vec0 when the chunks do not account for every row', () => {
    const store = memory()
    for (let i = 0; i < 20; i++)
      store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: `walk ${i}`, reply_text: '' } })
    // A row vec0 lists that no chunk holds as valid (as a layout this does not read would show),
    // written without sqlite-vec loaded: with it, its tables are not writable.
    const plain = new Database(store.db.name)
    plain.prepare('INSERT INTO vec_units_rowids (id, chunk_id, chunk_offset) VALUES (999999, 1, 1000)').run()
    plain.close()
    expect(store.db.transaction(() => vecRowsByChunks(store.db, VEC_UNITS)).deferred()).toBeNull()
    vectorIndexOf(store).rebuild()
    expect(vectorIndexOf(store).stats.loadedFrom).toBe('vec0')
  })
})
