/**
 * Runs tasks that share a key one after another, and tasks of different keys side by side.
 * The HTTP API uses it so concurrent `/api/chat` calls that continue the same conversation each
 * find the node the one before wrote: read together, 37 calls on an empty flow made 37 roots.
 */
export class TurnsByKey {
  private readonly tails = new Map<string, Promise<void>>()

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve()
    const result = before.then(task)
    const tail = result.then(
      () => undefined,
      () => undefined,
    )
    this.tails.set(key, tail)
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key)
    })
    return result
  }
}
