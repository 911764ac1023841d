import { GET_NODES_MAX, type Node } from '@shared/contract'

/**
 * Content of the cards a window shows, fetched when they come into view. A big flow opens with
 * its shape and only the content around its newest turn (FlowView), so a card or a transcript
 * turn scrolled to asks here; asks made in one turn of the event loop go as one call.
 */
export function nodeContent(deps: {
  has(id: string): boolean
  fetch(ids: string[]): Promise<Node[] | null>
  take(nodes: Node[]): void
}) {
  let wanted = new Set<string>()
  // Asked once per open flow: a node the host no longer has must not be asked for every frame.
  const asked = new Set<string>()
  let scheduled = false

  async function flush(): Promise<void> {
    scheduled = false
    const ids = [...wanted]
    wanted = new Set()
    for (let i = 0; i < ids.length; i += GET_NODES_MAX) {
      const got = await deps.fetch(ids.slice(i, i + GET_NODES_MAX))
      if (got && got.length > 0) deps.take(got)
    }
  }

  return {
    want(ids: readonly string[]): void {
      for (const id of ids) {
        if (deps.has(id) || asked.has(id)) continue
        asked.add(id)
        wanted.add(id)
      }
      if (wanted.size > 0 && !scheduled) {
        scheduled = true
        setTimeout(() => void flush(), 0)
      }
    },
    /** Another flow opened, or the open one read again: any node may be asked for again. */
    reset(): void {
      asked.clear()
      wanted.clear()
    },
  }
}
