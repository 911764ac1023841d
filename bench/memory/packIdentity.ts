import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { importLines } from '../../main/memory/import/importer'
import { choosePack, type PathMembership } from '../../main/memory/pack/packBuilder'
import { openMemory } from '../../main/memory/store/db'
import { UnitKind, UnitState } from '../../main/memory/store/enums'
import type { MemoryStore } from '../../main/memory/store/store'
import { readLocomo, type Conversation } from './locomoData'
import { personaConversations } from './personaConversations'
import { words } from './syntheticMemory'

// The packs' identity check: a change meant only to make packs cheaper must leave every pack as
// it was. Packs LoCoMo conversations 0–4's questions, the synthetic set's, and a small chat memory
// like the API bench's (episodes from nodes, a path, "hello N" queries), at a fixed clock, and
// hashes each pack's text and its sections (what the inspector shows). Between packs another
// connection writes — a new turn every few questions, a unit archived now and then — so caches
// that miss another connection's writes change a pack too.
//
//   npx tsx --tsconfig tsconfig.node.json bench/memory/packIdentity.ts --write hashes.json
//   (on the other commit) … packIdentity.ts --against hashes.json
//
// Prints a JSON line per set (packs and a digest of them), and with --against the packs that differ.

const { values } = parseArgs({ options: { write: { type: 'string' }, against: { type: 'string' } } })

/** Every pack is built at this time (recency and named times read the clock). */
const NOW = 1_767_225_600 // 2026-01-01
const BUDGET = 2000
const repoRoot = resolve(import.meta.dirname, '../..')
const locomoPath = process.env.LOOMVERSE_LOCOMO || resolve(repoRoot, '../shared/data/locomo/locomo_dev.json')

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16)

interface PackSet {
  name: string
  /** Fills a fresh memory; answers the queries and the path to pack them for. */
  fill(store: MemoryStore): { queries: string[]; path: PathMembership | null }
}

/** Imported turns, one pack per question. */
const conversationSet = (name: string, c: Conversation): PackSet => ({
  name,
  fill: (store) => {
    importLines(store, c.lines.join('\n'))
    return { queries: c.questions.map((q) => q.question), path: null }
  },
})

/** A chat memory as the API bench builds it: 200 turns from nodes, half of them on the path. */
const chatSet: PackSet = {
  name: 'chat-200',
  fill: (store) => {
    for (let i = 0; i < 200; i++)
      store.createUnit({
        kind: UnitKind.EPISODE,
        source: 'chat',
        occurred_at: NOW - (200 - i) * 60,
        origin_node_id: `n${i}`,
        origin_flow_id: 'f',
        payload: {
          user_text: `hello ${i} ${words[i % words.length]}`,
          reply_text: `About ${words[(i * 7) % words.length]} and ${words[(i * 13) % words.length]}, ${i} times.`,
        },
      })
    const onPath = new Set(Array.from({ length: 200 }, (_, i) => `n${i}`).filter((_, i) => i % 2 === 0))
    return {
      queries: Array.from({ length: 120 }, (_, i) =>
        i % 3 === 0 ? `hello ${i}` : `What did we say about ${words[(i * 5) % words.length]} last week?`,
      ),
      path: { has: (id) => onPath.has(id) },
    }
  },
}

function sets(): PackSet[] {
  const out: PackSet[] = []
  const locomo = readLocomo(locomoPath)
  if (locomo) locomo.slice(0, 5).forEach((c, i) => out.push(conversationSet(`locomo-${i}`, c)))
  else console.error(`no LoCoMo data at ${locomoPath}: set LOOMVERSE_LOCOMO (its sets are left out)`)
  personaConversations().forEach((c, i) => out.push(conversationSet(`synthetic-${i}`, c)))
  out.push(chatSet)
  return out
}

/** Each pack's hash, by set, in question order. */
function packHashes(set: PackSet): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'loomverse-pack-identity-'))
  const now = () => NOW
  const store = openMemory(join(dir, 'memory.db'), { now })
  // Another connection's writes: the packs' caches must see them.
  const other = openMemory(join(dir, 'memory.db'), { now })
  try {
    const { queries, path } = set.fill(store)
    const out: string[] = []
    for (const [i, query] of queries.entries()) {
      const pack = choosePack(store, { query, budget: BUDGET, path, now: NOW })
      out.push(hash(`${pack.text}\n${JSON.stringify(pack.details())}`))
      if (i % 5 === 4)
        other.createUnit({
          kind: UnitKind.EPISODE,
          source: 'chat',
          occurred_at: NOW - 30,
          payload: { user_text: query, reply_text: `I remember: ${words[i % words.length]} ${i}.` },
        })
      if (i % 9 === 8) {
        const max = (other.prepare('SELECT max(id) FROM units').pluck().get() as number | null) ?? 0
        const id = ((i * 37) % Math.max(1, max)) + 1
        if (other.unit(id)) other.editMeta(id, { state: UnitState.ARCHIVED }, 'identity check')
      }
    }
    return out
  } finally {
    other.db.close()
    store.db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const all: Record<string, string[]> = {}
const before = values.against ? (JSON.parse(readFileSync(values.against, 'utf8')) as Record<string, string[]>) : null
let differing = 0
for (const set of sets()) {
  const hashes = packHashes(set)
  all[set.name] = hashes
  const was = before?.[set.name]
  const differ = was ? hashes.filter((h, i) => h !== was[i]).length + Math.abs(was.length - hashes.length) : null
  differing += differ ?? 0
  console.log(
    JSON.stringify({
      bench: 'memory.pack_identity',
      set: set.name,
      packs: hashes.length,
      digest: hash(hashes.join('')),
      ...(was ? { differing: differ } : {}),
    }),
  )
}
if (values.write) writeFileSync(values.write, JSON.stringify(all))
if (before) {
  const missing = Object.keys(before).filter((name) => !(name in all))
  console.log(
    JSON.stringify({
      bench: 'memory.pack_identity',
      identical: differing === 0 && missing.length === 0,
      differing,
      missing,
    }),
  )
  if (differing > 0 || missing.length > 0) process.exitCode = 1
}
