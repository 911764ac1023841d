/** Files are read and written this many at a time: one by one, a big export spends most of its time waiting. */
const FILES_IN_FLIGHT = 32

/** `fn` over `items` with at most FILES_IN_FLIGHT running, results in input order. */
export async function mapLimit<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(FILES_IN_FLIGHT, items.length) }, worker))
  return results
}
