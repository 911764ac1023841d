import { TimeSlices } from '../../kernel/timeSlices'
import { byCodeUnits } from './order'
import type { NodeFile } from './readExport'
import { compareTimestamps } from './timestamps'

/** Several files carrying one node id (seed §4.3): the one used, then the others by rank. */
export interface Collision {
  id: string
  chosen: string
  candidates: string[]
}

/**
 * One file per node id. The seed's rule: the newest timestamp wins; on a tie, the file
 * found later in directory order. The losers stay listed, best first, so nothing is lost
 * silently.
 */
export async function resolveCollisions(
  files: readonly NodeFile[],
  slices = new TimeSlices(),
): Promise<{ chosen: NodeFile[]; collisions: Collision[] }> {
  // In slices of time: 40,000 nodes at once held the event loop ~0.5 s on a busy machine.
  const groups = new Map<string, NodeFile[]>()
  for (const f of files) {
    if (slices.due()) await slices.next()
    const group = groups.get(f.node.id)
    if (group) group.push(f)
    else groups.set(f.node.id, [f])
  }
  const chosen: NodeFile[] = []
  const collisions: Collision[] = []
  for (const [id, group] of groups) {
    if (slices.due()) await slices.next()
    const [best, ...rest] = group.sort(
      (a, b) => compareTimestamps(b.node.timestamp, a.node.timestamp) || byCodeUnits(b.relpath, a.relpath),
    )
    chosen.push(best!)
    if (rest.length > 0) collisions.push({ id, chosen: best!.relpath, candidates: rest.map((f) => f.relpath) })
  }
  return { chosen, collisions }
}
