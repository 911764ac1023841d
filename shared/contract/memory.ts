import type { EventSpecs, MethodSpecs } from './spec'

// Persona memory (seed 002 Unit+Payload schema, seed 004 Scheduler/MemoryPack).
// Filled in by the memory feature; spread into the contract in ./index.ts.

export const memoryMethods = {} as const satisfies MethodSpecs

export const memoryEvents = {} as const satisfies EventSpecs
