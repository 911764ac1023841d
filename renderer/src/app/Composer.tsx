import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp, useAppStore } from '../store'
import { withResources } from '../store/mcpSlice'
import { StoryComposer } from '../features/story/StoryComposer'
import { AttachedResources } from '../features/tools/AttachedResources'
import { useSlashPrompts } from '../features/tools/useSlashPrompts'
import { AttachedImages } from '../features/world/AttachedImages'
import { SpeakerPicker } from '../features/scene/SpeakerPicker'
import { placeChild } from '../store/placement'
import { PromptBox } from '../ui/PromptBox'
import { useBudgetCheck } from '../features/graph/useBudgetCheck'

/**
 * The prompt box under the transcript and the graph. It continues from the selected node (or
 * starts a new root); in a story's own conversation it takes the player's turns instead.
 */
export function Composer() {
  const story = useApp((s) => (s.story && s.story.flow_id === s.flowId ? s.story : null))
  // Keyed by the story: words typed for one story never carry over to another, nor to a chat.
  if (story) return <StoryComposer key={story.id} />
  return <ChatComposer />
}

function ChatComposer() {
  const { t } = useTranslation()
  const store = useAppStore()
  const draft = useApp((s) => s.draft)
  const setDraft = useApp((s) => s.setDraft)
  const parentIndex = useApp((s) => (s.selectedId ? s.members[s.selectedId]?.index : undefined))
  const asRoot = useApp((s) => s.asRoot)
  const setAsRoot = useApp((s) => s.setAsRoot)
  const over = useBudgetCheck(draft)
  const slash = useSlashPrompts(draft, setDraft)
  // One send at a time: the next prompt must continue from the node this one creates.
  const [sending, setSending] = useState(false)

  const send = async () => {
    const { flow, positions, selectedId, send: sendPrompt, attachedResources } = store.getState()
    const text = draft.trim()
    if (!text || !flow || sending) return
    const position = placeChild(flow, positions, selectedId ? [selectedId] : [])
    setSending(true)
    setDraft('')
    const id = await sendPrompt(withResources(text, attachedResources), position)
    setSending(false)
    if (id) {
      store.setState({ attachedResources: [] })
      store.getState().focusNode(id)
    } else setDraft(text) // nothing lost when the send failed
  }

  return (
    <PromptBox
      label={t('graph.prompt')}
      placeholder={t('graph.composerPlaceholder')}
      value={draft}
      onChange={setDraft}
      onSend={() => void send()}
      canSend={draft.trim() !== '' && !sending}
      assist={slash}
      head={
        <>
          <div className="composer-target">
            <span data-testid="composer-target">
              {parentIndex !== undefined && !asRoot
                ? t('graph.continuesFrom', { index: parentIndex })
                : t('graph.newRoot')}
            </span>
            {parentIndex !== undefined && (
              <button type="button" className="link" onClick={() => setAsRoot(!asRoot)}>
                {asRoot ? t('graph.continueInstead', { index: parentIndex }) : t('graph.newRootInstead')}
              </button>
            )}
            <AttachedResources />
          </div>
          <SpeakerPicker draft={draft} busy={sending} />
          <AttachedImages />
        </>
      }
      warning={
        over && (
          <p className="composer-over" role="alert">
            {over.promptOver > 0
              ? t('graph.promptOverBudget', { over: over.promptOver, budget: over.budget })
              : t('graph.turnsLeftOut', { count: over.dropped, budget: over.budget })}
          </p>
        )
      }
    />
  )
}
