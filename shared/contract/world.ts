import type { EventSpecs, MethodSpecs } from './spec'

// The world (SAIVerse seed): buildings, personas' whereabouts, picture/document items.
// Filled in by the world feature; spread into the contract in ./index.ts.

export const worldMethods = {} as const satisfies MethodSpecs

export const worldEvents = {} as const satisfies EventSpecs
