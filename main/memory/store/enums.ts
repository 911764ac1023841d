import type { MemorySensitivity, MemoryUnitKind, MemoryUnitState } from '@shared/contract'

// Seed 002's enums, fixed values: they are stored as integers and must never be renumbered.

export const UnitKind = { EPISODE: 1, FACT: 2, SUMMARY: 3, PERSONA: 4, CONTRACT: 5, CAPSULE: 6, LOOP: 7 } as const
export type UnitKind = (typeof UnitKind)[keyof typeof UnitKind]

export const UnitState = { RAW: 0, VALIDATED: 1, CONSOLIDATED: 2, ARCHIVED: 3 } as const
export type UnitState = (typeof UnitState)[keyof typeof UnitState]

export const Sensitivity = { NORMAL: 0, PRIVATE: 1, SECRET: 2 } as const
export type Sensitivity = (typeof Sensitivity)[keyof typeof Sensitivity]

export const EntityType = { PERSON: 1, PLACE: 2, PROJECT: 3, WORK: 4, TOPIC: 5, ORG: 6 } as const
export type EntityType = (typeof EntityType)[keyof typeof EntityType]

export const SummaryScopeType = { DAILY: 1, WEEKLY: 2, PERSON: 3, TOPIC: 4, RELATIONSHIP: 5 } as const
export type SummaryScopeType = (typeof SummaryScopeType)[keyof typeof SummaryScopeType]

/** How a unit mentions an entity (`unit_entities.role`); the seed leaves the values to us. */
export const EntityRole = { SUBJECT: 1, OBJECT: 2, MENTION: 3, SPEAKER: 4 } as const
export type EntityRole = (typeof EntityRole)[keyof typeof EntityRole]

/** `edges.rel_type`; the seed leaves the values to us. */
export const RelationType = {
  RELATED: 1,
  KNOWS: 2,
  FAMILY: 3,
  FRIEND: 4,
  WORKS_AT: 5,
  LIVES_IN: 6,
  LIKES: 7,
  PART_OF: 8,
  WORKS_ON: 9,
} as const
export type RelationType = (typeof RelationType)[keyof typeof RelationType]

export const LoopStatus = { OPEN: 0, CLOSED: 1 } as const

const kindNames: Record<UnitKind, MemoryUnitKind> = {
  1: 'episode',
  2: 'fact',
  3: 'summary',
  4: 'persona',
  5: 'contract',
  6: 'capsule',
  7: 'loop',
}
const stateNames: Record<UnitState, MemoryUnitState> = { 0: 'raw', 1: 'validated', 2: 'consolidated', 3: 'archived' }
const sensitivityNames: Record<Sensitivity, MemorySensitivity> = { 0: 'normal', 1: 'private', 2: 'secret' }

export const kindName = (k: number): MemoryUnitKind => kindNames[k as UnitKind]
export const kindValue = (name: MemoryUnitKind): UnitKind =>
  Number(Object.entries(kindNames).find(([, n]) => n === name)![0]) as UnitKind
export const stateName = (s: number): MemoryUnitState => stateNames[s as UnitState]
export const stateValue = (name: MemoryUnitState): UnitState =>
  Number(Object.entries(stateNames).find(([, n]) => n === name)![0]) as UnitState
export const sensitivityName = (s: number): MemorySensitivity => sensitivityNames[s as Sensitivity]
export const sensitivityValue = (name: MemorySensitivity): Sensitivity =>
  Number(Object.entries(sensitivityNames).find(([, n]) => n === name)![0]) as Sensitivity

export const entityTypeName = (t: number): string =>
  (Object.entries(EntityType).find(([, v]) => v === t)?.[0] ?? 'TOPIC').toLowerCase()
export const relationName = (t: number): string =>
  (Object.entries(RelationType).find(([, v]) => v === t)?.[0] ?? 'RELATED').toLowerCase()

/** `units.source` of a fact the user asked in chat to be remembered (requests/toldFacts.ts). */
export const TOLD_SOURCE = 'told'
