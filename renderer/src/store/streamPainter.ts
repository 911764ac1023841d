/**
 * Buffers streamed text and applies it once per animation frame: one render per frame,
 * however many tokens arrived in it.
 */
export function streamPainter(apply: (deltas: Map<string, string>) => void) {
  let pending = new Map<string, string>()
  let scheduled = false
  const frame =
    typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (fn: () => void) => setTimeout(fn, 16)
  return {
    push(nodeId: string, delta: string) {
      pending.set(nodeId, (pending.get(nodeId) ?? '') + delta)
      if (scheduled) return
      scheduled = true
      frame(() => {
        scheduled = false
        const batch = pending
        pending = new Map()
        if (batch.size > 0) apply(batch)
      })
    },
    /** The node's full text just arrived: text still buffered is already in it. */
    discard(nodeId: string) {
      pending.delete(nodeId)
    },
  }
}
