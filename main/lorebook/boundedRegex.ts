import { Script, createContext } from 'node:vm'

// A key written `/pattern/` is the book author's code run over every message: `/(a+)+$/` against
// forty a's and a b backtracks for minutes, on the main thread, inside a prompt's context. V8
// stops a script run with a timeout even in the middle of a regular expression's backtracking,
// so each scan's regular expressions run together as one such script; one that runs out of time
// is found by running each alone, and left out from then on.

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

  get size(): number {
    return this.list.length
  }

  /** The sources of the ones left out for taking too long, as their keys were written. */
  get slow(): string[] {
    return [...this.tooSlow].map((id) => `/${this.list[id]!.source}/${this.list[id]!.flags}`)
  }

  /** The ids of those that match `text`. */
  matching(text: string): Set<number> {
    const found = new Set<number>()
    const ids = this.list.map((_, id) => id).filter((id) => !this.tooSlow.has(id))
    if (ids.length === 0) return found
    const all = testWithin(
      ids.map((id) => this.list[id]!),
      text,
      this.ms,
    )
    ids.forEach((id, i) => {
      // Out of time together: each alone, so only the one that backtracks is left out.
      const hit = all ? all[i] : testWithin([this.list[id]!], text, this.ms)?.[0]
      if (hit === undefined) this.tooSlow.add(id)
      else if (hit) found.add(id)
    })
    return found
  }
}
