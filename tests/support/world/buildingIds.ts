import type { World } from '@shared/contract'
import type { LlmHarness } from '../llmCore'

/** The first-run world's library and museum. */
export async function buildingIds(h: LlmHarness): Promise<{ libraryId: string; museumId: string }> {
  const world = await h.call<World>('get_world', {})
  return {
    libraryId: world.buildings.find((b) => b.kind === 'library')!.id,
    museumId: world.buildings.find((b) => b.kind === 'museum')!.id,
  }
}
