import { useEffect } from 'react'
import type { Node } from '@shared/contract'
import { useApp } from './index'

/** A node's content for a card or a transcript turn, asked of the host when not held yet (nodeContent.ts). */
export function useNodeContent(id: string): Node | undefined {
  const node = useApp((s) => s.nodes[id])
  const want = useApp((s) => s.wantContent)
  useEffect(() => {
    if (!node) want([id])
  }, [node, id, want])
  return node
}
