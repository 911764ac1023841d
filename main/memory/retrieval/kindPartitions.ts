/**
 * An in-memory vector index's rows, one partition per unit kind (a search asks for one kind),
 * and which partition each unit id is in: a unit whose kind changed moves to its new one.
 */
export class KindPartitions<P extends { remove(id: number): void }> {
  private readonly parts = new Map<number, P>()
  private readonly kindOf = new Map<number, number>()

  /** Units held, in every partition. */
  get size(): number {
    return this.kindOf.size
  }

  /** Whether unit `id` is in one of the partitions. */
  has(id: number): boolean {
    return this.kindOf.has(id)
  }

  get(kind: number): P | undefined {
    return this.parts.get(kind)
  }

  /** The partition of `kind`, made when it is the first of its kind. */
  of(kind: number, make: () => P): P {
    let part = this.parts.get(kind)
    if (!part) this.parts.set(kind, (part = make()))
    return part
  }

  /** The partition `id` goes into as a unit of `kind`, taken out of another kind's first. */
  placing(id: number, kind: number, make: () => P): P {
    const was = this.kindOf.get(id)
    if (was !== undefined && was !== kind) this.remove(id)
    this.kindOf.set(id, kind)
    return this.of(kind, make)
  }

  /** Records where a unit was put by a bulk load. */
  placed(id: number, kind: number): void {
    this.kindOf.set(id, kind)
  }

  /** Forgets where a unit was, when its partition let it go itself (a unit dropped as too old). */
  forget(id: number): void {
    this.kindOf.delete(id)
  }

  remove(id: number): void {
    const kind = this.kindOf.get(id)
    if (kind === undefined) return
    this.parts.get(kind)?.remove(id)
    this.kindOf.delete(id)
  }

  clear(): void {
    this.parts.clear()
    this.kindOf.clear()
  }
}
