import { Script, createContext } from 'node:vm'

// A key written `/pattern/` is the book author's code run over every message: `/(a+)+$/` against
// forty a's and a b backtracks for minutes, on the main thread, inside a prompt's context. V8
// stops a script run with a timeout even in the middle of a regular expression's backtracking,
// so each scan's regular expressions run together as one such script; when they run out of time
// the one to blame is found by halves, and left out from then on.

/** Time the regular expressions of one scanned text may take together (and one of them alone). */
export const REGEX_SCAN_MS = 25

const sandbox = createContext({ res: [] as RegExp[], text: '' })
const testAll = new Script('res.map((re) => re.test(text))')

/** Whether each of `res` matches `text`, or null when they did not finish within `ms`. */
function testWithin(res: readonly RegExp[], text: string, ms: number): boolean[] | null {
  sandbox.res = res
  sandbox.text = text
  try {
    return testAll.runInContext(sandbox, { timeout: ms }) as boolean[]
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return null
    throw e
  } finally {
    sandbox.res = []
    sandbox.text = ''
  }
}

/** Choices (`?`, each `|`) a pattern may hold and still be tested directly: at most 2^4 ways to try a place. */
const MAX_CHOICES = 4

/**
 * Whether a regular expression runs in time linear in the text whatever the text: no repetition
 * (`*`, `+`, `{…}`), no back-reference, and few choices (each `?` or `|` can double the ways a
 * backtracking engine tries one place: `a?a?a?…aaa` is the classic runaway without repetition).
 * It is then tested directly; every other one goes through the time bound (even one `\w+ing` is
 * quadratic: 20,000 letters took 0.9 s). Most keys are words with an option or two:
 * `/\bdragons?\b/i`, `/colou?r/`, `/(cat|dog)s?/`.
 */
export function runsInLinearTime(re: RegExp): boolean {
  const src = re.source
  let inClass = false
  let choices = 0
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!
    if (c === '\\') {
      const next = src[i + 1] ?? ''
      // \1 … \9 and \k<name> refer back to a group: matching them may backtrack without bound.
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) return false
      i++
    } else if (inClass) {
      if (c === ']') inClass = false
    } else if (c === '[') inClass = true
    else if (c === '(' && src[i + 1] === '?')
      i++ // (?: (?= (?! (?<…: a group's kind, not a choice
    else if (c === '*' || c === '+' || c === '{') return false
    else if ((c === '?' || c === '|') && ++choices > MAX_CHOICES) return false
  }
  return true
}

/**
 * Regular expressions tested with a time bound. `matching` answers which of them are in a text;
 * one that takes longer than REGEX_SCAN_MS on a text is found, reported in `slow`, and never run
 * again (a key the author meant to fire now and then is worth less than a window that answers).
 */
export class BoundedRegexes {
  private readonly list: RegExp[] = []
  private readonly tooSlow = new Set<number>()
  /** Those that run in linear time (runsInLinearTime): tested directly, without the bound's cost. */
  private readonly linear = new Set<number>()

  constructor(private readonly ms = REGEX_SCAN_MS) {}

  /** Adds one and answers its id. */
  add(re: RegExp): number {
    const id = this.list.push(re) - 1
    if (runsInLinearTime(re)) this.linear.add(id)
    return id
  }

  /** The sources of the ones left out for taking too long, as their keys were written. */
  get slow(): string[] {
    return [...this.tooSlow].map((id) => `/${this.list[id]!.source}/${this.list[id]!.flags}`)
  }

  /** Whether the one of this id was left out for taking too long. */
  isSlow(id: number): boolean {
    return this.tooSlow.has(id)
  }

  /** The ids of those that match `text`. */
  matching(text: string): Set<number> {
    const found = new Set<number>()
    // Out of time together: each half again, down to the one that backtracks, so a book of
    // many keys finds it in a few bounded runs and only it is left out.
    const test = (ids: number[]): void => {
      if (ids.length === 0) return
      const hits = testWithin(
        ids.map((id) => this.list[id]!),
        text,
        this.ms,
      )
      if (hits) {
        ids.forEach((id, i) => {
          if (hits[i]) found.add(id)
        })
      } else if (ids.length === 1) this.tooSlow.add(ids[0]!)
      else {
        const half = Math.ceil(ids.length / 2)
        test(ids.slice(0, half))
        test(ids.slice(half))
      }
    }
    // A script run with a time bound costs ~0.5 ms and a watchdog thread: only for those that need it.
    const bounded: number[] = []
    this.list.forEach((re, id) => {
      if (this.linear.has(id)) {
        re.lastIndex = 0
        if (re.test(text)) found.add(id)
      } else if (!this.tooSlow.has(id)) bounded.push(id)
    })
    test(bounded)
    return found
  }
}
