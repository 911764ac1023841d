import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { McpPromptInfo } from '@shared/contract'
import { useApp } from '../../store'
import { Button } from '../../ui/Button'
import { Dialog } from '../../ui/Dialog'
import { Field } from '../../ui/Field'
import { CatalogList } from './CatalogList'
import { DialogCloseRow } from '../../ui/DialogCloseRow'

/**
 * An MCP server's prompt as a command: its arguments asked for, then its text put in the
 * composer to send or edit. Without a prompt chosen, the servers' prompts to choose from.
 */
export function McpPromptDialog({
  server,
  prompt,
  onClose,
}: {
  server?: string
  prompt?: string
  onClose: () => void
}) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const setDraft = useApp((s) => s.setDraft)
  const [prompts, setPrompts] = useState<McpPromptInfo[] | null>(null)
  const [chosen, setChosen] = useState<McpPromptInfo | null>(null)
  const [values, setValues] = useState<Record<string, string>>({})

  useEffect(() => {
    void invoke('mcp_list_prompts', { start: true }).then((list) => {
      setPrompts(list ?? [])
      const found = list?.find((p) => p.server === server && p.name === prompt)
      if (found) setChosen(found)
    })
  }, [invoke, server, prompt])

  const fill = async (p: McpPromptInfo, args: Record<string, string>) => {
    const filled = await invoke('mcp_get_prompt', { server: p.server, name: p.name, arguments: args })
    if (!filled) return
    setDraft(filled.text)
    onClose()
    document.getElementById('composer-input')?.focus()
  }
  const pick = (p: McpPromptInfo) => (p.arguments.length === 0 ? void fill(p, {}) : setChosen(p))
  const missing = chosen?.arguments.some((a) => a.required && !values[a.name]?.trim()) ?? true

  return (
    <Dialog
      title={chosen ? t('mcp.prompts.titleOf', { name: chosen.name }) : t('mcp.prompts.title')}
      onClose={onClose}
      className="mcp-catalog"
    >
      {chosen ? (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''))
            if (!missing) void fill(chosen, args)
          }}
        >
          {chosen.description && <p className="hint">{chosen.description}</p>}
          {chosen.arguments.map((a, i) => (
            <Field
              key={a.name}
              label={a.required ? a.name : t('mcp.prompts.optional', { name: a.name })}
              hint={a.description}
            >
              <input
                autoFocus={i === 0}
                value={values[a.name] ?? ''}
                required={a.required}
                onChange={(e) => setValues({ ...values, [a.name]: e.target.value })}
              />
            </Field>
          ))}
          <div className="dialog-actions">
            <Button onClick={onClose}>{t('mcp.cancel')}</Button>
            <Button type="submit" variant="primary" disabled={missing}>
              {t('mcp.prompts.use')}
            </Button>
          </div>
        </form>
      ) : (
        <>
          <p className="hint">{t('mcp.prompts.hint')}</p>
          <CatalogList
            items={prompts}
            label={t('mcp.prompts.title')}
            none={t('mcp.prompts.none')}
            action={t('mcp.prompts.choose')}
            onAction={pick}
          />
          <DialogCloseRow onClose={onClose} />
        </>
      )}
    </Dialog>
  )
}
