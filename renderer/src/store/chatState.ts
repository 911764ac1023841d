import type { Position } from '@shared/contract'

// What the chat slice holds and offers (its implementation: chatSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

export interface ChatSlice {
  /** Sends a prompt below the selected node; the reply streams into the new node. */
  send(prompt: string, position?: Position): Promise<string | null>
  /** An edited prompt: a sibling with the same parents, answered like any other prompt. */
  branch(nodeId: string, prompt: string, position?: Position): Promise<string | null>
  /** Asks again; `personaId`: another member of a group scene answers instead (a swipe to someone else). */
  retry(nodeId: string, position?: Position, personaId?: string): Promise<string | null>
  /** A group scene goes on below the selected reply without a prompt: the next member (or the one picked) answers. */
  nextSpeaker(position?: Position): Promise<string | null>
  stopReply(nodeId: string): Promise<void>
  continueReply(nodeId: string): Promise<void>
  /** What a reply is waiting on or why it failed ("rate limited, retrying in 4 s"), by node. */
  replyStatus: Record<string, { state: string; message?: string }>
  setReplyStatus(nodeId: string, status: { state: string; message?: string }): void
  /** Streamed text not yet painted, flushed once per animation frame. */
  appendStream(nodeId: string, delta: string): void
  /** Drops buffered text of a node whose full text just arrived. */
  discardStream(nodeId: string): void
  ensureNode(id: string): Promise<void>
}
