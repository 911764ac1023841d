/** One prompt being answered into one node. */
export interface Turn {
  nodeId: string
  flowId: string
  /** A persona chosen for this message; else the flow's own. */
  personaId?: string
  parentIds: string[]
  prompt: string
  images: Array<{ mime: string; data_base64: string }>
  /** Text already in the node when continuing an incomplete reply. */
  continueFrom?: string
  /** Writes a new message's node, its reply started: once its request has left (ChatService.send). */
  write?: (reply: { status: 'streaming'; response: string; speaker_id?: string }) => void
}
