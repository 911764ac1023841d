import type { z } from 'zod'

/** One method of the contract: what a caller sends and what it gets back. */
export interface MethodSpec {
  input: z.ZodType
  output: z.ZodType
}

export type MethodSpecs = Record<string, MethodSpec>
export type EventSpecs = Record<string, z.ZodType>
