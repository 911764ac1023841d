import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import { PromptBox } from '../../ui/PromptBox'

/**
 * The player's turn in a story's own conversation, in the composer's place under the story's
 * transcript. It goes into the story (below the selected node, else where play stands) and
 * never takes the pictures waiting in the chat composer: those stay for the next chat prompt.
 */
export function StoryComposer() {
  const { t } = useTranslation()
  const send = useApp((s) => s.sendStoryTurn)
  const at = useApp((s) => {
    const id = s.selectedId ?? s.story?.current_node_id
    return id ? s.members[id]?.index : undefined
  })
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)

  const submit = async () => {
    const prompt = text.trim()
    if (!prompt || sending) return
    setSending(true)
    const sent = await send(prompt)
    setSending(false)
    if (sent) setText('') // a refused turn stays typed, to send again
  }

  return (
    <PromptBox
      label={t('story.input')}
      placeholder={t('story.inputPlaceholder')}
      value={text}
      onChange={setText}
      onSend={() => void submit()}
      canSend={text.trim() !== '' && !sending}
      head={
        <div className="composer-target">
          <span data-testid="composer-target">
            {at === undefined ? t('story.playBegins') : t('story.playContinues', { index: at })}
          </span>
        </div>
      }
    />
  )
}
