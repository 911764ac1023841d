import type { Persona } from '@shared/contract'

/**
 * The persona a person named on a command line or in a tool's arguments: by id, else by name.
 * An unknown or ambiguous name is an Error whose message lists what there is to choose from.
 */
export function matchPersona(personas: readonly Persona[], ref: string): Persona {
  const byId = personas.find((p) => p.id === ref)
  if (byId) return byId
  const named = personas.filter((p) => p.name === ref)
  if (named.length === 1) return named[0]!
  if (named.length > 1) {
    throw new Error(`${named.length} personas are named "${ref}"; give one's id: ${named.map((p) => p.id).join(', ')}`)
  }
  const known = personas.map((p) => `${p.name} (${p.id})`).join(', ')
  throw new Error(
    personas.length === 0
      ? `no persona "${ref}": there are no personas yet; create one in the app first`
      : `no persona "${ref}"; the personas are: ${known}`,
  )
}
