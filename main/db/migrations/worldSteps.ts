import type { Migration } from '../migrate'

/** The world's schema steps (SAIVERSE seed), versions 8, 9, … in order. */
export const worldSteps: readonly Migration[] = []
