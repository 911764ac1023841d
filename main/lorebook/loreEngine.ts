import { characterFilterOf, LorePosition, type LoreBook, type LoreEntry, type LoreReason } from '@shared/contract'
import { tokenCount } from '../kernel/tokens'
import {
  compileKeys,
  scanTexts,
  secondaryMatches,
  type KeyHits,
  type KeyRef,
  type KeyTable,
  type ScannedText,
} from './loreScan'

/** A book as the engine reads it. */
export type EngineBook = Pick<LoreBook, 'id' | 'name' | 'settings' | 'entries'>

/** An entry that fired on a turn, as the next turns read it for sticky and cooldown. */
export interface FiredRecord {
  book_id: string
  uid: number
  /** 'sticky': it was kept on by its stickiness; anything else started it anew. */
  kind: LoreReason['kind']
}

export interface LoreInput {
  /**
   * The persona the reply is for (its name), for entries with SillyTavern's character filter;
   * null when the conversation has none.
   */
  character?: string | null
  /** The messages to scan, newest first: [0] is the new prompt, [1] the reply before it, and so on. */
  messages: readonly string[]
  /** Turns the conversation had before this prompt (an entry's `delay` counts these). */
  turn: number
  /** What fired on earlier turns of this branch, newest first: history[0] is the turn before this one. */
  history: readonly (readonly FiredRecord[])[]
  /** A random number in [0, 1) for a probability roll or group draw named by `salt` (seeded: see seededRandom). */
  random: (salt: string) => number
}

export interface FiredEntry {
  book_id: string
  book_name: string
  entry: LoreEntry
  reason: LoreReason
  tokens: number
}

export interface LoreResult {
  /** The entries that go in, in insertion order: by position, then `order` (lower first). */
  fired: FiredEntry[]
  /** Entries that fired but found no room in their book's token budget. */
  over_budget: FiredEntry[]
  /** Keys of the books in play left out of matching: regular expressions that took too long on a text. */
  skipped_keys: SkippedKey[]
}

/** A regular expression key left out for taking too long (boundedRegex), and its entry. */
export interface SkippedKey {
  book_id: string
  book_name: string
  uid: number
  comment: string
  key: string
}

interface Slot {
  book: EngineBook
  entry: LoreEntry
  scanDepth: number
  recursive: boolean
  /** The secondary keys, compiled, for the few entries whose primary key matched. */
  secondary: KeyRef[]
}

/** Every entry of the books in play, compiled once per version of the books (loreScan finds the keys). */
export interface CompiledLore {
  slots: Slot[]
  keys: KeyTable
  /** The constant entries' slots. */
  constant: number[]
  /** Slots by `book id:uid`. */
  byId: Map<string, number>
  maxDepth: number
  maxRecursion: number
}

export function compileLore(books: readonly EngineBook[]): CompiledLore {
  const slots: Slot[] = []
  const compiled: CompiledLore = {
    slots,
    keys: compileKeys(),
    constant: [],
    byId: new Map(),
    maxDepth: 0,
    maxRecursion: 0,
  }
  for (const book of books) {
    const s = book.settings
    if (s.recursive) compiled.maxRecursion = Math.max(compiled.maxRecursion, s.max_recursion)
    for (const entry of book.entries) {
      if (!entry.enabled) continue
      const index = slots.length
      const options = {
        caseSensitive: entry.case_sensitive ?? s.case_sensitive,
        wholeWords: entry.match_whole_words ?? s.match_whole_words,
      }
      entry.keys.forEach((key, k) => compiled.keys.addPrimary(key, index, k, options))
      const secondary = entry.secondary_keys.flatMap((key) => compiled.keys.addSecondary(key, options) ?? [])
      const scanDepth = entry.scan_depth ?? s.scan_depth
      slots.push({ book, entry, scanDepth, recursive: s.recursive, secondary })
      compiled.maxDepth = Math.max(compiled.maxDepth, scanDepth)
      if (entry.constant) compiled.constant.push(index)
      compiled.byId.set(`${book.id}:${entry.uid}`, index)
    }
  }
  return compiled
}

/**
 * Which entries fire for a prompt (SillyTavern's World Info rules): constant entries; entries
 * whose primary key is in the scanned messages and whose secondary keys pass their logic; kept
 * on by stickiness, held off by cooldown and delay; one per inclusion group; a probability roll;
 * fired entries' text scanned again for keys up to the recursion limit; then each book's token
 * budget, higher `order` first.
 */
export function activateLore(compiled: CompiledLore, input: LoreInput): LoreResult {
  const timed = timedState(compiled, input.history)
  let texts: ScannedText[] = input.messages
    .slice(0, compiled.maxDepth)
    .map((text, message) => ({ scan: compiled.keys.scan(text), message }))
  const fired = new Map<number, FiredEntry>()
  const groupsTaken = new Set<string>()
  // The messages' key hits, found once; each recursion adds its fired entries' text to them.
  const hits = scanTexts(compiled.keys, texts)

  let next = settle(candidates(compiled, hits, texts, 0, input, timed, fired), groupsTaken, input)
  for (const f of next) fired.set(f.index, f.fired)
  for (let level = 1; level <= compiled.maxRecursion && next.length > 0; level++) {
    // As SillyTavern's recursion does, the chat is scanned again with the fired entries' text added.
    const added = next
      .filter((f) => compiled.slots[f.index]!.recursive && !f.fired.entry.prevent_recursion)
      .map((f) => ({ scan: compiled.keys.scan(f.fired.entry.content), message: -1 }))
    if (added.length === 0) break
    texts = [...texts, ...added]
    scanTexts(compiled.keys, added, hits)
    next = settle(candidates(compiled, hits, texts, level, input, timed, fired), groupsTaken, input)
    for (const f of next) fired.set(f.index, f.fired)
  }
  return { ...withinBudgets(compiled, [...fired.values()]), skipped_keys: skippedKeys(compiled) }
}

/** The keys of every entry in play that are left out for taking too long (none, nearly always). */
export function skippedKeys(compiled: CompiledLore, bookId?: string): SkippedKey[] {
  if (compiled.keys.slowKeys.length === 0) return []
  const out: SkippedKey[] = []
  for (const { book, entry } of compiled.slots) {
    if (bookId !== undefined && book.id !== bookId) continue
    for (const key of new Set([...entry.keys, ...entry.secondary_keys]))
      if (compiled.keys.isSlow(key))
        out.push({ book_id: book.id, book_name: book.name, uid: entry.uid, comment: entry.comment, key })
  }
  return out
}

interface Candidate {
  index: number
  fired: FiredEntry
  score: number
}

function candidates(
  compiled: CompiledLore,
  hits: KeyHits,
  texts: readonly ScannedText[],
  level: number,
  input: LoreInput,
  timed: Map<number, 'sticky' | 'cooldown'>,
  fired: ReadonlyMap<number, FiredEntry>,
): Candidate[] {
  const out: Candidate[] = []
  const make = (index: number, reason: LoreReason, score = 0): Candidate => {
    const { book, entry } = compiled.slots[index]!
    const f = { book_id: book.id, book_name: book.name, entry, reason, tokens: tokenCount(entry.content) }
    return { index, fired: f, score }
  }
  // Only entries that can fire are looked at: those with a key found, the constant ones, the timed ones.
  const visit = new Set<number>(hits.keys())
  if (level === 0) for (const i of [...compiled.constant, ...timed.keys()]) visit.add(i)
  for (const index of [...visit].sort((a, b) => a - b)) {
    if (fired.has(index)) continue
    const slot = compiled.slots[index]!
    const e = slot.entry
    if (!forCharacter(e, input.character ?? null)) continue
    const state = timed.get(index)
    if (level === 0 && state === 'sticky') {
      out.push(make(index, { kind: 'sticky', key: null, message: null }, 1))
      continue
    }
    if (state === 'cooldown' || input.turn < e.delay) continue
    if (level === 0 && e.constant && !e.delay_until_recursion) {
      out.push(make(index, { kind: 'constant', key: null, message: null }))
      continue
    }
    if ((level > 0 && e.exclude_recursion) || (level === 0 && e.delay_until_recursion)) continue
    // A key in a message deeper than the entry's scan depth does not count; a fired entry's text (-1) does.
    const within = (m: number) => m < slot.scanDepth
    let best: { key: number; message: number } | null = null
    let primary = 0
    for (const [key, m] of hits.get(index) ?? []) {
      if (!within(m)) continue
      primary++
      if (!best || m < best.message) best = { key, message: m }
    }
    if (!best) continue
    const secondary = secondaryMatches(slot.secondary, texts, within)
    if (!secondaryPasses(e, secondary, slot.secondary.length)) continue
    const reason: LoreReason = {
      kind: level === 0 ? 'key' : 'recursion',
      key: e.keys[best.key]!,
      message: best.message >= 0 ? best.message : null,
    }
    out.push(make(index, reason, primary + secondary))
  }
  return out
}

/**
 * SillyTavern's character filter: an entry naming personas fires only for them (or, excluding,
 * never for them). Its tags are read as SillyTavern reads them for a character with no tags (a
 * persona has none): a filter to tags keeps the entry out, an exclusion by tags lets it be.
 */
function forCharacter(e: LoreEntry, character: string | null): boolean {
  if (!('characterFilter' in e.extra)) return true
  const f = characterFilterOf(e.extra)
  if (!f) return true
  if (f.names.length > 0) {
    const named = character !== null && f.names.some((n) => n.trim() === character.trim())
    if (f.isExclude ? named : !named) return false
  }
  if (f.tags.length > 0 && !f.isExclude) return false
  return true
}

function secondaryPasses(e: LoreEntry, matched: number, total: number): boolean {
  if (total === 0) return true
  switch (e.selective_logic) {
    case 'and_any':
      return matched > 0
    case 'and_all':
      return matched === total
    case 'not_any':
      return matched === 0
    case 'not_all':
      return matched < total
  }
}

/** Inclusion groups, then probability: what of the candidates fires. */
function settle(found: Candidate[], groupsTaken: Set<string>, input: LoreInput): Candidate[] {
  const byGroup = new Map<string, Candidate[]>()
  for (const c of found)
    for (const g of groupsOf(c.fired.entry)) {
      const list = byGroup.get(g)
      if (list) list.push(c)
      else byGroup.set(g, [c])
    }
  const losers = new Set<Candidate>()
  for (const [group, members] of byGroup) {
    // A group that fired on an earlier pass of this turn has its one entry.
    if (groupsTaken.has(group)) {
      members.forEach((m) => losers.add(m))
      continue
    }
    groupsTaken.add(group)
    let pool = members.filter((m) => !losers.has(m))
    if (pool.length <= 1) continue
    const sticky = pool.filter((m) => m.fired.reason.kind === 'sticky')
    if (sticky.length > 0) pool = sticky
    if (pool.some((m) => m.fired.entry.use_group_scoring)) {
      const top = Math.max(...pool.map((m) => m.score))
      pool = pool.filter((m) => m.score === top)
    }
    const overrides = pool.filter((m) => m.fired.entry.group_override)
    const winner =
      overrides.length > 0
        ? overrides.reduce((a, b) => (b.fired.entry.order > a.fired.entry.order ? b : a))
        : weightedDraw(pool, input.random(`group:${group}`))
    for (const m of members) if (m !== winner) losers.add(m)
  }
  return found.filter((c) => {
    if (losers.has(c)) return false
    const e = c.fired.entry
    if (c.fired.reason.kind === 'sticky' || !e.use_probability || e.probability >= 100) return true
    return input.random(`probability:${c.fired.book_id}:${e.uid}`) * 100 < e.probability
  })
}

function groupsOf(e: LoreEntry): string[] {
  return e.group
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean)
}

function weightedDraw(pool: Candidate[], roll: number): Candidate {
  const total = pool.reduce((a, m) => a + m.fired.entry.group_weight, 0)
  if (total <= 0) return pool[0]!
  let at = roll * total
  for (const m of pool) {
    at -= m.fired.entry.group_weight
    if (at < 0) return m
  }
  return pool.at(-1)!
}

/**
 * Sticky and cooldown from the earlier turns: an entry started k turns ago stays on while
 * k ≤ sticky, then is held off while k ≤ sticky + cooldown.
 */
function timedState(
  compiled: CompiledLore,
  history: readonly (readonly FiredRecord[])[],
): Map<number, 'sticky' | 'cooldown'> {
  const started = new Map<string, number>()
  history.forEach((turn, i) => {
    for (const r of turn) {
      const id = `${r.book_id}:${r.uid}`
      if (r.kind !== 'sticky' && !started.has(id)) started.set(id, i + 1)
    }
  })
  const state = new Map<number, 'sticky' | 'cooldown'>()
  if (started.size === 0) return state
  for (const [id, k] of started) {
    const index = compiled.byId.get(id)
    if (index === undefined) continue
    const { sticky, cooldown } = compiled.slots[index]!.entry
    if (k <= sticky) state.set(index, 'sticky')
    else if (k <= sticky + cooldown) state.set(index, 'cooldown')
  }
  return state
}

const POSITIONS: readonly LoreEntry['position'][] = LorePosition.options

/** Each book's budget, higher `order` first (constant entries before all); then insertion order. */
function withinBudgets(compiled: CompiledLore, fired: FiredEntry[]): Omit<LoreResult, 'skipped_keys'> {
  const inBook = new Map<string, FiredEntry[]>()
  for (const f of fired) {
    const list = inBook.get(f.book_id)
    if (list) list.push(f)
    else inBook.set(f.book_id, [f])
  }
  const kept: FiredEntry[] = []
  const over: FiredEntry[] = []
  for (const entries of inBook.values()) {
    const budget =
      compiled.slots[compiled.byId.get(`${entries[0]!.book_id}:${entries[0]!.entry.uid}`)!]!.book.settings.token_budget
    const ranked = [...entries].sort(
      (a, b) => Number(b.entry.constant) - Number(a.entry.constant) || b.entry.order - a.entry.order,
    )
    let used = 0
    let full = false
    for (const f of ranked) {
      if (f.entry.ignore_budget || budget === 0) kept.push(f)
      else if (!full && used + f.tokens <= budget) {
        used += f.tokens
        kept.push(f)
      } else {
        // Once one does not fit, every lower one stays out too, as SillyTavern does.
        full = true
        over.push(f)
      }
    }
  }
  kept.sort(
    (a, b) =>
      POSITIONS.indexOf(a.entry.position) - POSITIONS.indexOf(b.entry.position) ||
      a.entry.order - b.entry.order ||
      a.entry.uid - b.entry.uid,
  )
  return { fired: kept, over_budget: over }
}
