import type { In, Method, Out } from '@shared/contract'

// What the invoke slice holds and offers (its implementation: invokeSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

/** The one way slices and components ask the main process for an answer. */
export interface InvokeSlice {
  /** Calls the main process for a one-off answer; a failure shows as a toast and gives null. */
  invoke<M extends Method>(method: M, input: In<M>): Promise<Out<M> | null>
}
