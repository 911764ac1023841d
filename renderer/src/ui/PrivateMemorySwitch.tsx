import './privateMemorySwitch.css'

/**
 * "Remembers only itself": the switch the conversation settings and the persona form share.
 * `lockedBy`: the persona already keeps every conversation to itself (the box shows it ticked).
 */
export function PrivateMemorySwitch({
  label,
  hint,
  checked,
  onChange,
  lockedBy,
}: {
  label: string
  hint: string
  checked: boolean
  onChange: (checked: boolean) => void
  lockedBy?: string | null
}) {
  return (
    <label className="memory-private-switch">
      <input
        type="checkbox"
        checked={checked || !!lockedBy}
        disabled={!!lockedBy}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>{label}</span>
      <span className="hint">{lockedBy ?? hint}</span>
    </label>
  )
}
