import type { StateCreator } from 'zustand'
import { flowShape, newestLeafBelow, resolveLeaf } from './activePath'
import type { App, AppStore } from './app'
import type { ReadingLayout, TranscriptSlice } from './transcriptState'

const LAYOUT_KEY = 'loomverse.readingLayout'
const SPLIT_KEY = 'loomverse.readingSplit'
/** The transcript's share of the width when both show: the wider of the two for a new user. */
export const DEFAULT_SPLIT = 0.6
export const MIN_SPLIT = 0.25
export const MAX_SPLIT = 0.8

function stored<T>(key: string, parse: (raw: string) => T | null, fallback: T): T {
  try {
    const raw = localStorage.getItem(key)
    return (raw === null ? null : parse(raw)) ?? fallback
  } catch {
    return fallback // no storage (a test's fake window): the defaults
  }
}

function store(key: string, value: string) {
  try {
    localStorage.setItem(key, value)
  } catch {
    // a choice not remembered is still a choice made
  }
}

const clampSplit = (n: number) => Math.min(MAX_SPLIT, Math.max(MIN_SPLIT, n))

export const transcriptSlice: StateCreator<App, [], [], TranscriptSlice> = (set, get) => ({
  leafId: null,
  choseInTranscript: null,
  readingLayout: stored<ReadingLayout>(
    LAYOUT_KEY,
    (raw) => (['transcript', 'both', 'graph'].includes(raw) ? (raw as ReadingLayout) : null),
    'both',
  ),
  readingSplit: stored(
    SPLIT_KEY,
    (raw) => (Number.isFinite(Number(raw)) ? clampSplit(Number(raw)) : null),
    DEFAULT_SPLIT,
  ),

  chooseFromTranscript(id) {
    set({ choseInTranscript: id })
    get().focusNode(id)
  },

  reveal: null,
  revealInTranscript(id) {
    set((s) => ({ reveal: { id, seq: (s.reveal?.seq ?? 0) + 1 } }))
  },

  showAlternative(id) {
    const flow = get().flow
    if (!flow) return
    const leaf = newestLeafBelow(flow, id)
    set({ leafId: leaf, choseInTranscript: leaf })
    get().select(leaf)
  },

  showInGraph(id) {
    set({ choseInTranscript: id })
    if (get().readingLayout === 'transcript') {
      get().setReadingLayout('both')
      // Centre once the canvas has its size again, or the centre is computed for an empty box.
      requestAnimationFrame(() => requestAnimationFrame(() => get().focusNode(id)))
    } else get().focusNode(id)
  },

  setReadingLayout(readingLayout) {
    store(LAYOUT_KEY, readingLayout)
    set({ readingLayout })
  },

  setReadingSplit(split) {
    const readingSplit = clampSplit(split)
    store(SPLIT_KEY, String(readingSplit))
    set({ readingSplit })
  },
})

/** Keeps the transcript's leaf in step with the selection and the open flow's shape. */
export function wireTranscript(store: AppStore) {
  store.subscribe((s, prev) => {
    if (s.flow === prev.flow && s.selectedId === prev.selectedId && s.story === prev.story) return
    const previous = s.flow?.id === prev.flow?.id ? s.leafId : null
    const leafId = s.flow ? (storyEnd(s) ?? resolveLeaf(s.flow, previous, s.selectedId)) : null
    if (leafId !== s.leafId) store.setState({ leafId })
  })
}

/**
 * A story reads up to where play stands (the node chosen, else the autosave): a turn undone, or
 * a message chosen to play on from, ends the text there, as the page of a book would.
 */
function storyEnd(s: App): string | null {
  if (!s.flow || !s.story || s.story.flow_id !== s.flow.id) return null
  const at = s.selectedId ?? s.story.current_node_id
  return at !== null && flowShape(s.flow).index.has(at) ? at : null
}
