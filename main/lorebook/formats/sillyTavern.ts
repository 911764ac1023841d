import { LorePosition as LorePositions, type LoreEntry, type LorePosition, type SelectiveLogic } from '@shared/contract'
import { DEFAULT_BOOK_SETTINGS, newEntry } from '../loreDefaults'
import type { ImportedBook } from '../lorebookService'
import { BookFormatError, bool, entryCount, int, num, str, strings, type Raw } from './fields'

// SillyTavern World Info: a JSON file `{ "entries": { "<uid>": {...} } }`. Each field SillyTavern
// defines that Loomverse acts on is read into the entry; the rest is kept in `extra` as it came.
// The values as read are kept too (extra.st): an entry exported unchanged writes them back
// exactly (a null role stays null, position 5 stays 5), an edited field is written anew.

/** SillyTavern's position numbers, 0–7, in order (LorePosition says what each does). */
const POSITIONS: readonly LorePosition[] = LorePositions.options
const LOGIC: readonly SelectiveLogic[] = ['and_any', 'not_all', 'not_any', 'and_all']
const ROLES = ['system', 'user', 'assistant'] as const

interface Field {
  st: string
  read: (v: unknown, at: string) => Partial<LoreEntry>
  write: (e: LoreEntry) => unknown
}

const nullableBool = (v: unknown, at: string) => (v === null || v === undefined ? null : bool(v, at))

/** The fields Loomverse acts on, SillyTavern's name first. */
const FIELDS: readonly Field[] = [
  { st: 'key', read: (v, at) => ({ keys: strings(v, at) }), write: (e) => e.keys },
  { st: 'keysecondary', read: (v, at) => ({ secondary_keys: strings(v ?? [], at) }), write: (e) => e.secondary_keys },
  { st: 'comment', read: (v, at) => ({ comment: str(v ?? '', at) }), write: (e) => e.comment },
  { st: 'content', read: (v, at) => ({ content: str(v ?? '', at) }), write: (e) => e.content },
  { st: 'constant', read: (v, at) => ({ constant: bool(v ?? false, at) }), write: (e) => e.constant },
  { st: 'disable', read: (v, at) => ({ enabled: !bool(v ?? false, at) }), write: (e) => !e.enabled },
  {
    st: 'selectiveLogic',
    read: (v, at) => ({ selective_logic: LOGIC[int(v ?? 0, at, 0, 3)]! }),
    write: (e) => LOGIC.indexOf(e.selective_logic),
  },
  { st: 'order', read: (v, at) => ({ order: int(v ?? 100, at, -1e6, 1e6) }), write: (e) => e.order },
  {
    st: 'position',
    read: (v, at) => ({ position: POSITIONS[int(v ?? 0, at, 0, 7)] ?? 'before_persona' }),
    write: (e) => POSITIONS.indexOf(e.position),
  },
  { st: 'ignoreBudget', read: (v, at) => ({ ignore_budget: bool(v ?? false, at) }), write: (e) => e.ignore_budget },
  {
    st: 'excludeRecursion',
    read: (v, at) => ({ exclude_recursion: bool(v ?? false, at) }),
    write: (e) => e.exclude_recursion,
  },
  {
    st: 'preventRecursion',
    read: (v, at) => ({ prevent_recursion: bool(v ?? false, at) }),
    write: (e) => e.prevent_recursion,
  },
  {
    // SillyTavern also allows a recursion level here; any truthy value waits for recursion.
    st: 'delayUntilRecursion',
    read: (v) => ({ delay_until_recursion: Boolean(v) }),
    write: (e) => e.delay_until_recursion,
  },
  { st: 'probability', read: (v, at) => ({ probability: num(v ?? 100, at, 0, 100) }), write: (e) => e.probability },
  {
    st: 'useProbability',
    read: (v, at) => ({ use_probability: bool(v ?? true, at) }),
    write: (e) => e.use_probability,
  },
  { st: 'depth', read: (v, at) => ({ depth: int(v ?? 4, at, 0, 1000) }), write: (e) => e.depth },
  { st: 'group', read: (v, at) => ({ group: str(v ?? '', at) }), write: (e) => e.group },
  { st: 'groupOverride', read: (v, at) => ({ group_override: bool(v ?? false, at) }), write: (e) => e.group_override },
  { st: 'groupWeight', read: (v, at) => ({ group_weight: num(v ?? 100, at, 0, 1e6) }), write: (e) => e.group_weight },
  {
    st: 'scanDepth',
    read: (v, at) => ({ scan_depth: v === null || v === undefined ? null : int(v, at, 0, 1000) }),
    write: (e) => e.scan_depth,
  },
  { st: 'caseSensitive', read: (v, at) => ({ case_sensitive: nullableBool(v, at) }), write: (e) => e.case_sensitive },
  {
    st: 'matchWholeWords',
    read: (v, at) => ({ match_whole_words: nullableBool(v, at) }),
    write: (e) => e.match_whole_words,
  },
  {
    st: 'useGroupScoring',
    read: (v, at) => ({ use_group_scoring: nullableBool(v, at) ?? false }),
    write: (e) => e.use_group_scoring,
  },
  {
    st: 'role',
    read: (v, at) => ({ role: v === null || v === undefined ? 'system' : ROLES[int(v, at, 0, 2)]! }),
    write: (e) => ROLES.indexOf(e.role),
  },
  { st: 'sticky', read: (v, at) => ({ sticky: int(v ?? 0, at, 0, 10_000) }), write: (e) => e.sticky },
  { st: 'cooldown', read: (v, at) => ({ cooldown: int(v ?? 0, at, 0, 10_000) }), write: (e) => e.cooldown },
  { st: 'delay', read: (v, at) => ({ delay: int(v ?? 0, at, 0, 10_000) }), write: (e) => e.delay },
]
const MAPPED = new Set(['uid', ...FIELDS.map((f) => f.st)])

/** One SillyTavern entry as a Loomverse entry; `at` names it in an error ("entries.3"). */
export function fromStEntry(raw: unknown, uid: number, at: string): LoreEntry {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BookFormatError(at, 'must be an object')
  const r = raw as Raw
  let entry = newEntry(uid)
  const read: Raw = {}
  for (const f of FIELDS) {
    if (f.st === 'key' && r.key === undefined) throw new BookFormatError(`${at}.key`, 'is missing')
    entry = { ...entry, ...f.read(r[f.st], `${at}.${f.st}`) }
    if (f.st in r) read[f.st] = r[f.st]
  }
  const extra: Raw = {}
  for (const [k, v] of Object.entries(r)) if (!MAPPED.has(k)) extra[k] = v
  return { ...entry, extra: { ...extra, st: read } }
}

/** A Loomverse entry as SillyTavern writes it: what was read comes back as it was unless it changed. */
export function toStEntry(e: LoreEntry): Raw {
  const { st, ...kept } = e.extra as Raw & { st?: Raw }
  const out: Raw = { uid: e.uid }
  for (const f of FIELDS) {
    const was = st?.[f.st]
    const unchanged = st !== undefined && f.st in st && same(f.read(was, f.st), f.write(e), f)
    out[f.st] = unchanged ? was : f.write(e)
  }
  return { ...kept, ...out }
}

/** Whether the value read still means what the entry holds now (so the original is written back). */
function same(readBack: Partial<LoreEntry>, now: unknown, f: Field): boolean {
  try {
    const entry = { ...newEntry(0), ...readBack }
    return JSON.stringify(f.write(entry)) === JSON.stringify(now)
  } catch {
    return false
  }
}

/** A World Info file's text as a book: every entry read before anything is kept, or an error naming the field. */
export function readWorldInfo(json: Raw, name: string): ImportedBook {
  const entries = json.entries
  if (!entries || typeof entries !== 'object') throw new BookFormatError('entries', 'must be an object of entries')
  entryCount(entries, 'entries')
  const list = Array.isArray(entries) ? entries.map((e, i) => [String(i), e] as const) : Object.entries(entries)
  const read = list.map(([k, raw]) => {
    const at = `entries.${k}`
    const uidRaw = raw && typeof raw === 'object' && 'uid' in raw ? (raw as Raw).uid : Number(k)
    return fromStEntry(raw, int(uidRaw, `${at}.uid`, 0, 2 ** 31), at)
  })
  const { entries: _entries, name: bookName, description, ...extra } = json
  return {
    name: typeof bookName === 'string' && bookName.trim() ? bookName.trim().slice(0, 200) : name,
    description: typeof description === 'string' ? description : '',
    settings: { ...DEFAULT_BOOK_SETTINGS },
    entries: read,
    extra: {
      ...extra,
      ...(bookName !== undefined ? { name: bookName } : {}),
      ...(description !== undefined ? { description } : {}),
    },
  }
}

/** A book as a SillyTavern World Info file. */
export function writeWorldInfo(book: { entries: readonly LoreEntry[]; extra: Raw }): Raw {
  const entries: Raw = {}
  book.entries.forEach((e, i) => {
    const st = toStEntry(e)
    if (!('displayIndex' in st)) st.displayIndex = i
    entries[String(e.uid)] = st
  })
  return { ...book.extra, entries }
}
