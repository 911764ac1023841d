import type { Migration } from '../../../main/db/migrate'
import type { DomainSchema } from '../../../main/db/domainMigrations'

/**
 * The one numbered list of the releases before each domain owned its migrations, put back
 * together from the domains' steps by their old numbers (a step since split in two runs both
 * halves, as it once ran as one). With main/db/migrate.ts (`PRAGMA user_version`) it makes a
 * data folder as those releases left it, at any of their steps.
 */
export function previousReleaseSteps(domains: readonly DomainSchema[]): Migration[] {
  const byNumber = new Map<number, Array<DomainSchema['migrations'][number]>>()
  for (const schema of domains)
    for (const step of schema.migrations)
      if (step.legacy !== undefined) byNumber.set(step.legacy, [...(byNumber.get(step.legacy) ?? []), step])
  return [...byNumber.keys()]
    .sort((a, b) => a - b)
    .map((version) => {
      const parts = byNumber.get(version)!
      return { version, name: parts[0]!.name, up: (db) => parts.forEach((part) => part.up(db)) }
    })
}
