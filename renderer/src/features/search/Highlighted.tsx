/** Renders the search excerpt's ⟦matches⟧ as <mark>, everything else as plain text (no HTML). */
export function Highlighted({ text }: { text: string }) {
  const parts = text.split(/(⟦[^⟧]*⟧)/)
  return (
    <span className="excerpt">
      {parts.map((p, i) =>
        p.startsWith('⟦') && p.endsWith('⟧') ? <mark key={i}>{p.slice(1, -1)}</mark> : <span key={i}>{p}</span>,
      )}
    </span>
  )
}
