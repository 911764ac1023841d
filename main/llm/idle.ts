/**
 * Iterates `source`, failing with `onIdle()`'s error when no item arrives for `idleMs`:
 * a stream that stalls must not hang a reply forever.
 */
export async function* withIdleTimeout<T>(
  source: AsyncIterable<T>,
  idleMs: number,
  onIdle: () => Error,
): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]()
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined
    const idle = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(onIdle()), idleMs)
    })
    try {
      const next = await Promise.race([it.next(), idle])
      if (next.done) return
      yield next.value
    } catch (e) {
      await it.return?.().catch(() => {})
      throw e
    } finally {
      clearTimeout(timer)
    }
  }
}
