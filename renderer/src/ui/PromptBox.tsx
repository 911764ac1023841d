import { ScanSearch, SendHorizontal } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../store'
import { Button } from './Button'

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
}

/**
 * The text box under the transcript and the graph, with Send (or Ctrl/Cmd+Enter) and the
 * context inspector beside it: one form for a chat's prompts and a story's turns.
 */
export function PromptBox({ label, placeholder, value, onChange, onSend, canSend, head, warning }: Props) {
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
      <textarea
        id="composer-input"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        rows={3}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault()
            onSend()
          }
        }}
      />
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
