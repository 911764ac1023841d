import { useEffect, useId, useMemo, useState } from 'react'
import type { McpPromptInfo } from '@shared/contract'
import { useApp } from '../../store'
import { fuzzyFilter } from '../../ui/fuzzy'
import type { TextAssist } from '../../ui/PromptBox'
import { SlashPromptList } from './SlashPromptList'

/**
 * `/` at the start of the composer lists the prompts of the running MCP servers this
 * conversation may use (the persona's servers, or the conversation's own choice), filtered by
 * what follows the slash. Enter or Tab uses the active one, as the palette's command does: its
 * text replaces the draft, or the prompt dialog asks for its arguments first. Escape closes
 * the list until the text changes. With no prompt to offer, `/` is only a character.
 */
export function useSlashPrompts(draft: string, setDraft: (text: string) => void): TextAssist {
  const listId = useId()
  const query = /^\/(\S*)$/.exec(draft)?.[1] ?? null
  const [dismissed, setDismissed] = useState<string | null>(null)
  const [active, setActive] = useState(0)
  const [allowed, setAllowed] = useState<readonly string[] | null>(null)
  const prompts = useApp((s) => s.mcpPrompts)
  const personaId = useApp((s) => s.flow?.persona_id ?? null)
  const flowId = useApp((s) => s.flowId)
  const invoke = useApp((s) => s.invoke)
  const loadMcpPrompts = useApp((s) => s.loadMcpPrompts)
  const openModal = useApp((s) => s.openModal)
  const typed = query !== null

  useEffect(() => {
    if (!typed) return
    // Read when the slash is typed: servers started or prompts changed since are seen.
    void loadMcpPrompts()
    if (!personaId) return
    void invoke('mcp_get_access', { persona_id: personaId, ...(flowId ? { flow_id: flowId } : {}) }).then((a) =>
      setAllowed(a ? (a.flow_servers ?? a.persona_servers) : null),
    )
  }, [typed, personaId, flowId, invoke, loadMcpPrompts])

  const shown = useMemo(() => {
    if (query === null) return []
    const offered = prompts.filter((p) => !personaId || allowed === null || allowed.includes(p.server))
    return fuzzyFilter(offered, query, (p) => `${p.name} ${p.server}`)
  }, [prompts, allowed, personaId, query])
  const open = query !== null && dismissed !== draft && shown.length > 0
  const at = Math.min(active, Math.max(shown.length - 1, 0))
  const optionId = (i: number) => `${listId}-o${i}`

  // A new text starts at the first choice, and Escape holds only until the text changes
  // (adjusted while rendering, as React advises for state that follows a prop).
  const [seen, setSeen] = useState(draft)
  if (seen !== draft) {
    setSeen(draft)
    setActive(0)
    setDismissed(null)
  }

  const choose = (p: McpPromptInfo) => {
    if (p.arguments.length > 0) {
      setDraft('')
      openModal({ name: 'mcp_prompt', server: p.server, prompt: p.name })
      return
    }
    void invoke('mcp_get_prompt', { server: p.server, name: p.name, arguments: {} }).then((filled) => {
      if (filled) setDraft(filled.text)
    })
  }

  return {
    onKeyDown(e) {
      if (!open || e.ctrlKey || e.metaKey || e.altKey) return false
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        const step = e.key === 'ArrowDown' ? 1 : -1
        setActive((at + step + shown.length) % shown.length)
      } else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') choose(shown[at]!)
      else if (e.key === 'Escape') {
        setDismissed(draft)
        // The list's Escape: a dialog or panel behind the composer must not close with it.
        e.stopPropagation()
        e.nativeEvent.stopImmediatePropagation()
      } else return false
      e.preventDefault()
      return true
    },
    popup: open ? (
      <SlashPromptList
        id={listId}
        prompts={shown}
        active={at}
        optionId={optionId}
        onHover={setActive}
        onPick={choose}
      />
    ) : null,
    aria: {
      'aria-autocomplete': 'list',
      ...(open ? { 'aria-controls': listId, 'aria-activedescendant': optionId(at) } : {}),
    },
  }
}
