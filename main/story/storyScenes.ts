import { statSync } from 'node:fs'
import type { ContextPart, StorySummary } from '@shared/contract'
import type { StoryContext } from '../graph/flowContext'
import { tokenCount } from '../kernel/tokens'
import { SCENARIO, type ScenarioFiles } from './scenarioFiles'

interface Cached {
  mtimeMs: number
  size: number
  part: ContextPart
}

/**
 * The scenario's part of a story's context (seed F-004): world, player, every character sheet
 * and the AI's rules, in that order. Files are read and counted once and again only when their
 * size or time changes, so a turn with thirty sheets costs thirty `stat` calls, not thirty reads.
 */
export class ScenarioParts {
  private readonly cache = new Map<string, Cached>()

  parts(files: ScenarioFiles): ContextPart[] {
    const paths = [
      SCENARIO.world,
      SCENARIO.player,
      ...files.characters().map((c) => `${SCENARIO.characters}/${c}`),
      SCENARIO.rules,
    ]
    const parts: ContextPart[] = []
    for (const path of paths) {
      const part = this.part(files, path)
      if (part) parts.push(part)
    }
    return parts
  }

  private part(files: ScenarioFiles, rel: string): ContextPart | null {
    const key = `${files.root}\0${rel}`
    let info
    try {
      info = statSync(files.resolve(rel))
    } catch {
      this.cache.delete(key)
      return null // a file the user removed is simply not part of the scenario any more
    }
    const hit = this.cache.get(key)
    if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit.part
    const text = files.read(rel).trim()
    const part: ContextPart = { kind: 'scenario', node_id: null, text, tokens: tokenCount(text) }
    this.cache.set(key, { mtimeMs: info.mtimeMs, size: info.size, part })
    return text ? part : null
  }
}

/**
 * The story so far that holds below `parentIds`: the newest summary made on their path. The
 * walk goes up parent by parent and stops at the first node holding a summary, so it costs
 * the turns since the last summary, not the whole path — unless the branch has none yet.
 */
export function summaryAbove(
  parentIds: readonly string[],
  summaries: ReadonlyMap<string, StorySummary>,
  parentsOf: (id: string) => string[],
): StorySummary | null {
  if (summaries.size === 0) return null
  let best: StorySummary | null = null
  const seen = new Set<string>()
  let frontier = [...parentIds]
  while (frontier.length > 0) {
    const next: string[] = []
    for (const id of frontier) {
      if (seen.has(id)) continue
      seen.add(id)
      const here = summaries.get(id)
      if (here) {
        if (!best || here.turns > best.turns) best = here
        continue // everything above is older than this summary
      }
      next.push(...parentsOf(id))
    }
    frontier = next
  }
  return best
}

/**
 * How many turns the path to `nodeId` has gone since its last summary, counted up to `limit`:
 * enough to decide whether to summarise, in at most `limit` steps.
 */
export function turnsSinceSummary(
  nodeId: string,
  summaries: ReadonlyMap<string, StorySummary>,
  parentsOf: (id: string) => string[],
  limit: number,
): number {
  let count = 0
  let at: string | undefined = nodeId
  while (at !== undefined && count < limit) {
    const here = summaries.get(at)
    if (here) return count + (here.path_turns - here.turns)
    const up = parentsOf(at)
    if (up.length > 0) count++ // the opening scene (the root) is not a turn the player played
    at = up[0]
  }
  return count
}

export function storyContext(scenario: ContextPart[], summary: StorySummary | null): StoryContext {
  return { scenario, summary: summary?.text ?? null, coveredNodeId: summary?.covered_node_id ?? null }
}
