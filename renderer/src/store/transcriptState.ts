// What the transcript slice holds and offers (its implementation: transcriptSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

/** What the conversation area shows: the transcript, the graph, or both side by side. */
export type ReadingLayout = 'transcript' | 'both' | 'graph'

export interface TranscriptSlice {
  /** The leaf the transcript reads down to (root → leaf is the path shown). */
  leafId: string | null
  /**
   * The node last chosen from the transcript itself: the transcript does not scroll to a choice
   * it made (the graph still follows it).
   */
  choseInTranscript: string | null
  /** A message was clicked: its node becomes the selection, and the graph centres on it. */
  chooseFromTranscript(id: string): void
  /** ‹ › at a branching point: read the alternative down to its newest leaf, and continue there. */
  showAlternative(id: string): void
  /** Bumped when a node is chosen in the graph: the transcript scrolls to it, chosen anew or not. */
  reveal: { id: string; seq: number } | null
  revealInTranscript(id: string): void
  /** "Show in graph": the graph comes into view (beside the transcript) centred on the node. */
  showInGraph(id: string): void
  readingLayout: ReadingLayout
  setReadingLayout(layout: ReadingLayout): void
  /** The transcript's share of the width (0–1) when both show. */
  readingSplit: number
  setReadingSplit(split: number): void
}
