import { useEffect, useRef } from 'react'
import { FLOW_OPEN_WHOLE_MAX, type Flow, type Position } from '@shared/contract'
import { useApp, useAppStore } from '../../store'
import { placeChild } from '../../store/placement'
import { layoutInWorker } from './layout'

/**
 * Turns of a big placed flow written without a place (by the local API, a script) are put below
 * their parents, as the composer places a new turn, up to this many: a full layout of 50,000
 * cards for a few new ones would take the worker many seconds.
 */
const PLACE_BELOW_MAX = 200

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
    const big = flow.nodes.length > FLOW_OPEN_WHOLE_MAX || store.getState().flowLoading !== null
    if (big && missing.length > 0 && missing.length <= PLACE_BELOW_MAX) {
      // In index order: a parent written without a place is placed before its children.
      for (const m of flow.nodes) {
        if (effective[m.id]) continue
        const parents = flow.connections.filter((c) => c.to === m.id).map((c) => c.from)
        effective[m.id] = known[m.id] = placeChild(flow, effective, parents)
      }
      missing.length = 0
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
