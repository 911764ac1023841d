import { useApp } from '../store'

/** Every persona as an option of a select, by name: the pickers of the header, memory and imports share it. */
export function PersonaOptions() {
  const personas = useApp((s) => s.personas)
  return (
    <>
      {personas.map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
        </option>
      ))}
    </>
  )
}
