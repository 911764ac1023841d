import { useEffect, useState } from 'react'
import { useApp } from '../../store'

/** Below this many characters a prompt cannot come near a budget: no preview is asked for. */
const CHECK_FROM_CHARS = 2000
const SETTLE_MS = 500

export interface BudgetCheck {
  budget: number
  /** Tokens the prompt and what must go with it exceed the budget by (the prompt's start is cut). */
  promptOver: number
  /** Earlier turns that will be left out to make room. */
  dropped: number
}

/**
 * Whether a long prompt fits the flow's budget, asked of the main process (the one context
 * builder) once typing pauses: how many tokens over, or how many earlier turns will be left out.
 * Null while it fits, or for a short prompt.
 */
export function useBudgetCheck(draft: string): BudgetCheck | null {
  const invoke = useApp((s) => s.invoke)
  const flowId = useApp((s) => s.flowId)
  const parentId = useApp((s) => (s.asRoot ? null : s.selectedId))
  const [check, setCheck] = useState<BudgetCheck | null>(null)
  const long = draft.length >= CHECK_FROM_CHARS
  useEffect(() => {
    if (!long || !flowId) return
    let live = true
    const timer = setTimeout(() => {
      void invoke('build_context', { flow_id: flowId, parent_ids: parentId ? [parentId] : [], prompt: draft }).then(
        (context) => {
          if (!live || !context) return
          const promptOver = Math.max(0, context.total_tokens + (context.tool_tokens ?? 0) - context.budget)
          const dropped = context.dropped_node_ids.length
          setCheck(promptOver > 0 || dropped > 0 ? { budget: context.budget, promptOver, dropped } : null)
        },
      )
    }, SETTLE_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [draft, long, flowId, parentId, invoke])
  // The last answer stands while the user types on; a short prompt never warns.
  return long ? check : null
}
