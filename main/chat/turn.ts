import type { FlowInfo } from '../graph/flowContext'

/** One prompt being answered into one node. */
export interface Turn {
  nodeId: string
  flowId: string
  /**
   * The flow's own fields, when the message's checks read them in the same run as the turn
   * starts (ChatService.send): read again otherwise. Each read is a query and a parse of the cast.
   */
  flow?: FlowInfo
  /** A persona chosen for this message; else the flow's own. */
  personaId?: string
  parentIds: string[]
  prompt: string
  images: Array<{ mime: string; data_base64: string }>
  /** Text already in the node when continuing an incomplete reply. */
  continueFrom?: string
  /**
   * Writes a new message's node, its reply started: once its request has left (ChatService.send).
   * With `ifFree`, only if the database's write lock is free now: false, nothing written, if not.
   */
  write?: (reply: { status: 'streaming'; response: string; speaker_id?: string }, ifFree: boolean) => boolean
  /** Another program's request answered in this node (externalReplies.ts), not the user's message. */
  request?: RequestTurn
  /** Told the reply's first text before the node is written with it (CallContext.firstText). */
  firstText?: (text: string) => void
}

/** How a program's request is answered where a user's message differs. */
export interface RequestTurn {
  /** What the model is asked in the place of the user's words; the node's prompt only labels it. */
  ask: string
  /** The request's own words, what memory and the lorebooks search (not the instruction around them). */
  words: string
  /**
   * Words sent but never kept (a meta request's): the inspector's record of what was sent shows
   * them redacted, and memory keeps no pack searched with them.
   */
  secret: boolean
  /**
   * Sent once here, a failure told at once: its own line tries it again (externalReplies.ts). A
   * Regenerate the user asked for is retried as any reply.
   */
  triedAgainByCaller: boolean
  /** Keeps the finished reply where the request's memory is (its placeholder episode); answers the unit, or null. */
  keep: (text: string) => number | null
  /** Told once how the turn ended: the request is done, tried again later, released or given up by it. */
  ended: (end: TurnEnd) => void
}

/**
 * Where the program's request a node answered is found again (externalReplies.ts), so that
 * Regenerate and Continue on that node ask the request, not the label the node shows for it.
 */
export interface AnsweredRequests {
  /**
   * The request `nodeId` (spoken by `personaId`) answered, as a turn into a node asks it (another
   * node: Regenerate; the same node: Continue);
   * null when the node answered the user's own words. Throws when it cannot be asked again.
   */
  askedIn(nodeId: string, personaId: string): ((into: { nodeId: string; flowId: string }) => RequestTurn) | null
}

export type TurnEnd =
  | { state: 'done'; text: string }
  | { state: 'stopped'; text: string }
  | { state: 'failed'; text: string; error: unknown }
