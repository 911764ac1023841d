import { getViewportForBounds, useReactFlow, useStoreApi } from '@xyflow/react'
import { useCallback, useEffect, useState } from 'react'
import { FIT_PADDING } from './layout'
import { useAppStore } from '../../store'
import { boundsOf, nextWindow, viewRect, type Rect } from './canvasWindow'

/**
 * The window of cards the canvas gives React Flow (canvasWindow.ts), following the view: it
 * changes only when the view leaves it, so panning within it re-renders nothing. Null until the
 * canvas has a size.
 */
export function useViewWindow(): Rect | null {
  const flowStore = useStoreApi()
  const [win, setWin] = useState<Rect | null>(null)
  useEffect(() => {
    const follow = () => {
      const { transform, width, height } = flowStore.getState()
      // A hidden canvas has no size; and a view with no number in it (d3's zoom animated in a
      // box of no size gives NaN) would make a new window on every store change, for ever: React
      // stopped at its update limit and the window went blank (a story's "Hide the graph").
      if (width === 0 || height === 0 || !transform.every(Number.isFinite)) return
      // The same window when the view is still inside it: React then renders nothing.
      setWin((current) => nextWindow(viewRect(transform, width, height), current))
    }
    follow()
    return flowStore.subscribe(follow)
  }, [flowStore])
  return win
}

/**
 * Fits the view to every card of the flow, not only those React Flow has been given; read from
 * the store when called, so a fit right after new positions (Tidy) fits those.
 */
export function useFitAll(heightOf: (id: string) => number): (duration?: number) => void {
  const flowStore = useStoreApi()
  const store = useAppStore()
  const { setViewport } = useReactFlow()
  return useCallback(
    (duration = 0) => {
      const box = boundsOf(store.getState().positions, heightOf)
      if (!box) return
      const { width, height, minZoom, maxZoom } = flowStore.getState()
      // Hidden (the transcript alone): nothing to fit into.
      if (width === 0 || height === 0) return
      const bounds = { x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0 }
      void setViewport(getViewportForBounds(bounds, width, height, minZoom, maxZoom, FIT_PADDING), { duration })
    },
    [heightOf, store, flowStore, setViewport],
  )
}
