import { useEffect, useRef } from 'react'
import type { Flow, Position } from '@shared/contract'
import { useApp, useAppStore } from '../../store'
import { layoutInWorker } from './layout'

/**
 * Keeps the store's effective positions in step with the open flow: stored positions as
 * they are, and a dagre layout (in a worker) for nodes that have none yet. Nodes waiting
 * for the layout are simply not drawn for that moment.
 */
export function useFlowLayout(flow: Flow): void {
  const store = useAppStore()
  const setPositions = useApp((s) => s.setLayoutPositions)
  const auto = useRef<{ flowId: string; positions: Record<string, Position> }>({ flowId: '', positions: {} })

  useEffect(() => {
    if (auto.current.flowId !== flow.id) auto.current = { flowId: flow.id, positions: {} }
    const known = auto.current.positions
    const effective: Record<string, Position> = {}
    const missing: string[] = []
    for (const m of flow.nodes) {
      const p = m.position ?? known[m.id]
      if (p) effective[m.id] = p
      else missing.push(m.id)
    }
    setPositions(effective)
    if (missing.length === 0) return
    let cancelled = false
    layoutInWorker({ nodes: flow.nodes.map((m) => m.id), edges: flow.connections })
      .then((laid) => {
        if (cancelled) return
        for (const id of missing) if (laid[id]) known[id] = laid[id]
        const current = store.getState().flow
        if (current?.id !== flow.id) return
        const next: Record<string, Position> = {}
        for (const m of current.nodes) {
          const p = m.position ?? known[m.id]
          if (p) next[m.id] = p
        }
        setPositions(next)
      })
      .catch((e: unknown) => store.getState().toast('error', `layout failed: ${String(e)}`))
    return () => {
      cancelled = true
    }
  }, [flow, setPositions, store])
}
