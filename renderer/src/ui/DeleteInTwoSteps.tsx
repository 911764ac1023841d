import { useState } from 'react'

/**
 * Delete, then "Delete X" to confirm, in place: the first click only arms the button, so one
 * stray click never destroys anything. Keyed by what it deletes, a new target starts unarmed.
 */
export function DeleteInTwoSteps({
  label,
  confirmLabel,
  onDelete,
}: {
  label: string
  /** Names what goes: "Delete Mio". */
  confirmLabel: string
  onDelete: () => void
}) {
  const [armed, setArmed] = useState(false)
  return armed ? (
    <button type="button" className="danger primary" onClick={onDelete}>
      {confirmLabel}
    </button>
  ) : (
    <button type="button" className="danger" onClick={() => setArmed(true)}>
      {label}
    </button>
  )
}
