/**
 * Each unit's length in tokens and its units_words docsize origin (a new one for each rewrite),
 * by unit id, in typed arrays indexed by the id (unit ids are SQLite rowids, dense from 1): 12
 * bytes a unit. A Map of objects held ~100 bytes a unit, ~100 MB at a million units.
 */
export class UnitLengths {
  private tokens = new Uint32Array(0)
  /** -1: no unit (origins count from 0 up). */
  private origins = new Float64Array(0)

  get(id: number): { tokens: number; origin: number } | undefined {
    const origin = this.origins[id]
    return origin === undefined || origin < 0 ? undefined : { tokens: this.tokens[id]!, origin }
  }

  /** The unit's length, 0 when it is not known. */
  tokensOf(id: number): number {
    return (this.origins[id] ?? -1) < 0 ? 0 : this.tokens[id]!
  }

  set(id: number, tokens: number, origin: number): void {
    if (id >= this.origins.length) this.grow(id + 1)
    this.tokens[id] = tokens
    this.origins[id] = origin
  }

  delete(id: number): void {
    if (id < this.origins.length) this.origins[id] = -1
  }

  clear(): void {
    this.tokens = new Uint32Array(0)
    this.origins = new Float64Array(0)
  }

  /** By half again: a load sets ids in ascending order. */
  private grow(room: number): void {
    const size = Math.max(room, Math.ceil(this.origins.length * 1.5), 1024)
    const tokens = new Uint32Array(size)
    tokens.set(this.tokens)
    const origins = new Float64Array(size).fill(-1)
    origins.set(this.origins)
    this.tokens = tokens
    this.origins = origins
  }
}
