import { MessageSquare } from 'lucide-react'
import './ui.css'

/**
 * A persona's initial on a colour of its own (the same persona, the same colour everywhere: the
 * conversation list, a group scene's replies and its composer); a speech bubble for nobody.
 */
export function PersonaAvatar({
  personaId,
  name,
  size = 28,
}: {
  personaId: string | null
  name: string | null
  size?: number
}) {
  const box = { width: size, height: size, fontSize: Math.round(size * 0.46) }
  if (!personaId || !name) {
    return (
      <span className="persona-avatar none" aria-hidden style={box}>
        <MessageSquare size={Math.round(size / 2)} />
      </span>
    )
  }
  const initial = [...new Intl.Segmenter().segment(name.trim())][0]?.segment.toLocaleUpperCase() ?? '?'
  return (
    <span className="persona-avatar" aria-hidden style={{ ...box, background: `hsl(${hue(personaId)} 45% 42%)` }}>
      {initial}
    </span>
  )
}

function hue(id: string): number {
  let h = 0
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) % 360
  return h
}
