// What the panel slice holds and offers (its implementation: panelSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

export type Panel = 'search' | 'context' | 'memory' | 'story'

export interface PanelSlice {
  /** The side panel beside the canvas, if open. */
  panel: Panel | null
  togglePanel(panel: Panel): void
}
