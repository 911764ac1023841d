import { UsersRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { useApp, useAppStore } from '../../store'
import { Menu } from '../../ui/Menu'
import { placeSibling } from '../../store/placement'

/** In a group scene, beside Retry: the same turn answered again by another member (an alternative of its own). */
export function RetryAs({ nodeId }: { nodeId: string }) {
  const { t } = useTranslation()
  const store = useAppStore()
  const cast = useApp((s) => s.flow?.cast)
  const speaker = useApp((s) => s.nodes[nodeId]?.metadata.speaker_id ?? s.flow?.persona_id ?? null)
  const personas = useApp((s) => s.personas)
  if (!cast || cast.length < 2) return null
  const others = cast.filter((m) => m.persona_id !== speaker)
  return (
    <Menu
      label={t('scene.retryAs')}
      icon={UsersRound}
      iconOnly
      size="sm"
      className="msg-icon"
      align="start"
      testId="retry-as"
      items={others.map((m) => ({
        id: m.persona_id,
        label: personas.find((p) => p.id === m.persona_id)?.name ?? t('scene.unknown'),
        onSelect: () => {
          store.setState({ choseInTranscript: nodeId })
          const s = store.getState()
          void s.retry(nodeId, s.flow ? placeSibling(s.flow, s.positions, nodeId) : undefined, m.persona_id)
        },
      }))}
    />
  )
}
