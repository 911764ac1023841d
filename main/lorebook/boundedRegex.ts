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

/**
 * Regular expressions tested with a time bound. `matching` answers which of them are in a text;
 * one that takes longer than REGEX_SCAN_MS on a text is found, reported in `slow`, and never run
 * again (a key the author meant to fire now and then is worth less than a window that answers).
 */
export class BoundedRegexes {
  private readonly list: RegExp[] = []
  private readonly tooSlow = new Set<number>()

  constructor(private readonly ms = REGEX_SCAN_MS) {}

  /** Adds one and answers its id. */
  add(re: RegExp): number {
    return this.list.push(re) - 1
  }

  /** The sources of the ones left out for taking too long, as their keys were written. */
  get slow(): string[] {
    return [...this.tooSlow].map((id) => `/${this.list[id]!.source}/${this.list[id]!.flags}`)
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
    test(this.list.map((_, id) => id).filter((id) => !this.tooSlow.has(id)))
    return found
  }
}
