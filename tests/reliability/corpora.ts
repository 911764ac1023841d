import { frameCorpus, type RawFrame } from './frameCorpus'
import { SECRET_CANARY, hostileCases, hostilePlace, type HostileCase, type HostilePlace } from './hostileImports'

// The two corpora of issue 16 as the reliability runners take them: the malformed WebSocket
// frames (also sent by main/host/wsHostFrames.test.ts) and the hostile imports (also run by
// hostileImports.test.ts through the router).

export type Frame = RawFrame
export type { HostileCase }

export interface HostileCorpus {
  cases: readonly HostileCase[]
  place(root: string, imports: string): HostilePlace
  /** Text of the secret file: it must never show up in a refusal. */
  canary: string
}

export const frames: readonly Frame[] = frameCorpus
export const hostileCorpus: HostileCorpus = { cases: hostileCases, place: hostilePlace, canary: SECRET_CANARY }
