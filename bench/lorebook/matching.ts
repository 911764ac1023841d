// The lorebook matching figure (issue #40): 10,000 entries over a 50-turn scan (100 messages,
// the new prompt first). Prints JSON lines; compare ratios within one run. Run with
// `npm run bench:lorebook`.
import { DEFAULT_BOOK_SETTINGS, newEntry } from '../../main/lorebook/loreDefaults'
import { activateLore, compileLore, type EngineBook } from '../../main/lorebook/loreEngine'
import { seededRandom } from '../../main/lorebook/seededRandom'

const ENTRIES = 10_000
const TURNS = 50
const PROMPTS = 300
/** Every this-many-th entry has a regular-expression key (env LOOMVERSE_BENCH_REGEX_EVERY). */
const REGEX_EVERY = Number(process.env.LOOMVERSE_BENCH_REGEX_EVERY ?? 100)

const random = seededRandom('bench')
let draws = 0
const pick = <T>(list: readonly T[]) => list[Math.floor(random(String(draws++)) * list.length)]!

const common =
  'the a of and to in is was he she it they said with for on at by from old new dark light city river king road'.split(
    ' ',
  )
const names = Array.from(
  { length: ENTRIES * 2 },
  (_, i) => `${pick(['Ar', 'Bel', 'Cor', 'Dra', 'El', 'Fen', 'Gal'])}${i.toString(36)}`,
)

const entries = Array.from({ length: ENTRIES }, (_, i) =>
  newEntry(i, {
    keys: i % REGEX_EVERY === 0 ? [`/${names[2 * i]}s?/i`] : [names[2 * i]!, names[2 * i + 1]!],
    secondary_keys: i % 10 === 0 ? [pick(common)] : [],
    selective_logic: 'and_any',
    match_whole_words: i % 3 === 0,
    group: i % 20 === 0 ? `g${i % 7}` : '',
    content: `Entry ${i}: ${names[2 * i]} lives by the ${pick(common)}.`,
    sticky: i % 11 === 0 ? 2 : 0,
    cooldown: i % 13 === 0 ? 2 : 0,
  }),
)
const book: EngineBook = {
  id: 'bench',
  name: 'bench',
  settings: { ...DEFAULT_BOOK_SETTINGS, scan_depth: TURNS * 2, token_budget: 4096, max_recursion: 2 },
  entries,
}

/** A message of ~60 words, one of them an entry's key: the scan finds ~100 entries over 100 messages. */
const message = () => Array.from({ length: 60 }, (_, i) => (i === 7 ? pick(names) : pick(common))).join(' ')

const t0 = performance.now()
const compiled = compileLore([book])
const compileMs = performance.now() - t0

const conversation = Array.from({ length: TURNS * 2 }, message)
const samples: number[] = []
const cpu: number[] = []
let fired = 0
// The first prompts warm the JIT and are not counted.
const WARM = 20
for (let i = -WARM; i < PROMPTS; i++) {
  const messages = [message(), ...conversation.slice(0, TURNS * 2 - 1)]
  const t = performance.now()
  const c = process.cpuUsage()
  const result = activateLore(compiled, { messages, turn: TURNS, history: [], random: seededRandom(`p${i}`) })
  const used = process.cpuUsage(c)
  if (i >= 0) samples.push(performance.now() - t)
  // CPU time as well as wall time: on a shared machine the wall clock counts other processes' turns.
  if (i >= 0) cpu.push((used.user + used.system) / 1000)
  if (i >= 0) fired += result.fired.length + result.over_budget.length
  conversation.unshift(messages[0]!)
  conversation.length = TURNS * 2
}
const percentile = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b)
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(3)
}
const at = (p: number) => percentile(samples, p)
console.log(
  JSON.stringify({
    bench: 'lorebook.activate',
    entries: ENTRIES,
    messages_scanned: TURNS * 2,
    calls: PROMPTS,
    p50_ms: at(50),
    p95_ms: at(95),
    cpu_p50_ms: percentile(cpu, 50),
    cpu_p95_ms: percentile(cpu, 95),
    mean_fired: +(fired / PROMPTS).toFixed(1),
  }),
)
console.log(JSON.stringify({ bench: 'lorebook.compile', entries: ENTRIES, ms: +compileMs.toFixed(1) }))
