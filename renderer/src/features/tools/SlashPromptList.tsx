import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { McpPromptInfo } from '@shared/contract'

/** The composer's `/` list: each prompt by name with what it asks for, its server and what it is for. */
export function SlashPromptList({
  id,
  prompts,
  active,
  optionId,
  onHover,
  onPick,
}: {
  id: string
  prompts: McpPromptInfo[]
  active: number
  optionId: (i: number) => string
  onHover: (i: number) => void
  onPick: (p: McpPromptInfo) => void
}) {
  const { t } = useTranslation()
  const list = useRef<HTMLDivElement>(null)
  useEffect(() => {
    list.current?.querySelector(`#${CSS.escape(optionId(active))}`)?.scrollIntoView({ block: 'nearest' })
  }, [active, optionId])
  return (
    <div className="slash-prompts" data-testid="slash-prompts">
      <div id={id} ref={list} role="listbox" aria-label={t('mcp.prompts.title')} className="slash-prompts-list">
        {prompts.map((p, i) => (
          <div
            key={`${p.server}/${p.name}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className="slash-prompt"
            // Down, not click: the text box keeps its focus (and its caret) while one is picked.
            onMouseDown={(e) => {
              e.preventDefault()
              onPick(p)
            }}
            onMouseMove={() => onHover(i)}
          >
            <span className="slash-prompt-name">
              /{p.name}
              {p.arguments.length > 0 && ' '}
              {p.arguments.length > 0 && (
                <span className="slash-prompt-args">
                  {/* What it asks for, as a command line shows it: [optional] in brackets. */}
                  {p.arguments.map((a) => (a.required ? a.name : `[${a.name}]`)).join(' ')}
                </span>
              )}
            </span>
            <span className="slash-prompt-server">{p.server}</span>
            {p.description && <span className="slash-prompt-detail">{p.description}</span>}
          </div>
        ))}
      </div>
      <div className="slash-prompts-keys" aria-hidden="true">
        {t('mcp.slash.keys')}
      </div>
    </div>
  )
}
