/**
 * An Aho–Corasick automaton over UTF-16 code units: every occurrence of every pattern in one pass
 * over the text, however many patterns there are. A book of 10,000 entries is 20,000-odd keys;
 * a regular expression per key per message was what made SillyTavern's World Info stall on long
 * chats. Patterns are added as given (the caller lowercases for case-insensitive keys).
 */
export class AhoCorasick {
  /** Per state, its transitions by code unit. */
  private readonly next: Map<number, number>[] = [new Map()]
  private readonly fail: number[] = [0]
  /** Patterns that end exactly at a state. */
  private readonly ends: number[][] = [[]]
  /** The nearest state down the fail chain that ends a pattern (-1: none): outputs without walking dead states. */
  private readonly dict: number[] = [-1]
  private readonly lengths: number[] = []
  private built = false

  /** Adds a pattern and returns its id (ids count from 0 in the order added). */
  add(pattern: string): number {
    if (this.built) throw new Error('the automaton is built; add patterns before the first search')
    const id = this.lengths.length
    this.lengths.push(pattern.length)
    let s = 0
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern.charCodeAt(i)
      let t = this.next[s]!.get(c)
      if (t === undefined) {
        t = this.next.length
        this.next.push(new Map())
        this.fail.push(0)
        this.ends.push([])
        this.dict.push(-1)
        this.next[s]!.set(c, t)
      }
      s = t
    }
    this.ends[s]!.push(id)
    return id
  }

  get size(): number {
    return this.lengths.length
  }

  patternLength(id: number): number {
    return this.lengths[id]!
  }

  /**
   * Calls `found(patternId, start, end)` for every occurrence (end exclusive), in order of `end`.
   * An empty pattern never matches.
   */
  search(text: string, found: (id: number, start: number, end: number) => void): void {
    if (!this.built) this.build()
    let s = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      let t = this.next[s]!.get(c)
      while (t === undefined && s !== 0) {
        s = this.fail[s]!
        t = this.next[s]!.get(c)
      }
      s = t ?? 0
      for (let o = this.ends[s]!.length > 0 ? s : this.dict[s]!; o > 0; o = this.dict[o]!) {
        for (const id of this.ends[o]!) found(id, i + 1 - this.lengths[id]!, i + 1)
      }
    }
  }

  /** Fail links breadth first: a state's fail is the longest proper suffix of its path that is a state. */
  private build(): void {
    this.built = true
    const queue: number[] = []
    for (const t of this.next[0]!.values()) queue.push(t)
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!
      for (const [c, t] of this.next[s]!) {
        let f = this.fail[s]!
        while (f !== 0 && !this.next[f]!.has(c)) f = this.fail[f]!
        const g = this.next[f]!.get(c)
        this.fail[t] = g !== undefined && g !== t ? g : 0
        const ft = this.fail[t]!
        this.dict[t] = this.ends[ft]!.length > 0 ? ft : this.dict[ft]!
        queue.push(t)
      }
    }
  }
}
