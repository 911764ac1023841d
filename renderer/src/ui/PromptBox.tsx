import { ScanSearch, SendHorizontal } from 'lucide-react'
import type { KeyboardEvent, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../store'
import { Button } from './Button'

/** What a text box gets from a helper that lists choices as the user types (the `/` prompts). */
export interface TextAssist {
  /** True when the key was the helper's (the text box does nothing more with it). */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean
  /** The list shown over the text box, or null. */
  popup: ReactNode
  /** For the text box: which list it controls and which choice is active (a listbox popup). */
  aria: { 'aria-autocomplete': 'list'; 'aria-controls'?: string; 'aria-activedescendant'?: string }
}

interface Props {
  label: string
  placeholder: string
  value: string
  onChange: (text: string) => void
  onSend: () => void
  /** Sending is possible (something typed, nothing on its way). */
  canSend: boolean
  /** What goes above the text box: where the turn goes, what goes with it. */
  head: ReactNode
  /** A warning under the text box (the budget check), or nothing. */
  warning?: ReactNode
  /** A list offered as the user types (the `/` prompts), which takes the keys it needs. */
  assist?: TextAssist
}

/**
 * The text box under the transcript and the graph, with Send (or Ctrl/Cmd+Enter) and the
 * context inspector beside it: one form for a chat's prompts and a story's turns.
 */
export function PromptBox({ label, placeholder, value, onChange, onSend, canSend, head, warning, assist }: Props) {
  const { t } = useTranslation()
  const panel = useApp((s) => s.panel)
  const togglePanel = useApp((s) => s.togglePanel)
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault()
        onSend()
      }}
    >
      {head}
      <div className="composer-input">
        <textarea
          id="composer-input"
          aria-label={label}
          placeholder={placeholder}
          value={value}
          rows={3}
          {...assist?.aria}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (assist?.onKeyDown(e)) return
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault()
              onSend()
            }
          }}
        />
        {assist?.popup}
      </div>
      {warning}
      <div className="composer-actions">
        <Button
          variant="ghost"
          size="sm"
          icon={ScanSearch}
          aria-pressed={panel === 'context'}
          title={t('graph.inspectContextHint')}
          onClick={() => togglePanel('context')}
        >
          {t('graph.inspectContext')}
        </Button>
        <Button type="submit" variant="primary" icon={SendHorizontal} disabled={!canSend}>
          {t('graph.send')}
        </Button>
      </div>
    </form>
  )
}
