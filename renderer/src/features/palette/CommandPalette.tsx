import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ChevronRight, MessageSquare, Search, UserRound, Wrench } from 'lucide-react'
import { commands } from '../../store/commands'
import { useShell, type PaletteMode } from '../../store/shell'
import { useApp, useAppStore } from '../../store'
import { enterModalLayer, trapTab } from '../../ui/Dialog'
import { fuzzyFilter } from '../../ui/fuzzy'
import { keyLabel } from '../../ui/keys'
import './palette.css'

interface Entry {
  id: string
  label: string
  detail?: string
  keys?: string
  /** Opens another list rather than finishing. */
  more?: boolean
  icon?: typeof Search
  run: () => void
}

/**
 * Ctrl/Cmd+K: every registered command that applies now, fuzzy-filtered as the user types,
 * run with Enter. "Switch conversation" and "Choose persona" list conversations and personas
 * in the same box. ARIA: a dialog holding a combobox that controls a listbox.
 */
export function CommandPalette() {
  const mode = useShell((s) => s.palette)
  return mode ? <Palette key={mode} mode={mode} /> : null
}

function Palette({ mode }: { mode: PaletteMode }) {
  const { t } = useTranslation()
  const store = useAppStore()
  const close = useShell((s) => s.closePalette)
  const openPalette = useShell((s) => s.openPalette)
  const flows = useApp((s) => s.flows)
  const flowId = useApp((s) => s.flowId)
  const personas = useApp((s) => s.personas)
  const mcpPrompts = useApp((s) => s.mcpPrompts)
  const loadMcpPrompts = useApp((s) => s.loadMcpPrompts)
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const box = useRef<HTMLDivElement>(null)
  const list = useRef<HTMLUListElement>(null)
  const listId = useId()
  const titleId = useId()

  const entries = useMemo((): Entry[] => {
    const state = store.getState()
    const finish = (run: () => void) => () => {
      close()
      run()
    }
    if (mode === 'conversations') {
      return flows.map((f) => ({
        id: f.id,
        label: f.name,
        detail: [
          personas.find((p) => p.id === f.persona_id)?.name,
          t('shell.palette.turns', { count: f.node_count }),
          f.id === flowId ? t('shell.palette.open') : undefined,
        ]
          .filter(Boolean)
          .join(' · '),
        icon: MessageSquare,
        run: finish(() => void store.getState().openFlow(f.id)),
      }))
    }
    if (mode === 'personas') {
      const bound = state.flowId ? state.flow?.persona_id : state.nextPersonaId
      return personas.map((p) => ({
        id: p.id,
        label: p.name,
        detail: p.id === bound ? t('shell.palette.current') : (p.chat_model ?? undefined),
        icon: UserRound,
        run: finish(() => void store.getState().bindPersona(p.id)),
      }))
    }
    const registered = commands
      .filter((c) => !c.hidden && c.enabled(state))
      .map((c) => ({
        id: c.id,
        label: t(c.label),
        keys: c.keys,
        more: c.id === 'conversation.switch' || c.id === 'persona.choose',
        run: () => {
          close()
          c.run(store.getState())
        },
      }))
    // Each prompt of a connected MCP server is a command: it asks for its arguments, then fills the composer.
    const prompts = (state.flowId ? mcpPrompts : []).map((p) => ({
      id: `mcp.prompt.${p.server}.${p.name}`,
      label: t('mcp.prompts.command', { server: p.server, name: p.name }),
      detail: p.description,
      more: p.arguments.length > 0,
      icon: Wrench,
      run: finish(() => store.getState().openModal({ name: 'mcp_prompt', server: p.server, prompt: p.name })),
    }))
    return [...registered, ...prompts]
    // The lists are read when the palette opens or its source changes, not on every store change.
  }, [mode, flows, personas, flowId, mcpPrompts, store, close, t])

  const shown = useMemo(() => fuzzyFilter(entries, query, (e) => `${e.label} ${e.detail ?? ''}`), [entries, query])
  const at = Math.min(active, Math.max(shown.length - 1, 0))

  useEffect(() => {
    if (mode === 'commands') void loadMcpPrompts() // of servers already running: opening the palette starts none
  }, [mode, loadMcpPrompts])
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null
    box.current?.querySelector('input')?.focus()
    const leave = enterModalLayer(box.current!)
    return () => {
      leave()
      // Back where the user was, unless the command moved the focus on purpose.
      if (before?.isConnected && (document.activeElement === document.body || document.activeElement === null))
        before.focus()
    }
  }, [])
  useEffect(() => {
    list.current?.querySelector(`[data-index="${at}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [at])

  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      const step = e.key === 'ArrowDown' ? 1 : -1
      if (shown.length) setActive((at + step + shown.length) % shown.length)
    } else if (e.key === 'Home' && e.ctrlKey) setActive(0)
    else if (e.key === 'End' && e.ctrlKey) setActive(shown.length - 1)
    else if (e.key === 'Enter') {
      e.preventDefault()
      shown[at]?.run()
    } else if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      close()
    } else if (e.key === 'Backspace' && query === '' && mode !== 'commands') {
      e.preventDefault()
      openPalette('commands')
    } else if (box.current) trapTab(e, box.current)
  }

  const title =
    mode === 'conversations'
      ? t('shell.palette.conversationsTitle')
      : mode === 'personas'
        ? t('shell.palette.personasTitle')
        : t('shell.palette.title')
  const placeholder =
    mode === 'conversations'
      ? t('shell.palette.conversationsPlaceholder')
      : mode === 'personas'
        ? t('shell.palette.personasPlaceholder')
        : t('shell.palette.placeholder')

  return (
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        ref={box}
        onKeyDown={onKey}
        data-testid="command-palette"
      >
        <h2 id={titleId} className="visually-hidden">
          {title}
        </h2>
        <div className="palette-input">
          <Search size={18} aria-hidden="true" />
          <input
            type="text"
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={shown[at] ? `${listId}-${at}` : undefined}
            aria-label={title}
            placeholder={placeholder}
            value={query}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => {
              setQuery(e.target.value)
              setActive(0)
            }}
          />
          <kbd className="ui-kbd">Esc</kbd>
        </div>
        <ul id={listId} role="listbox" aria-label={title} className="palette-list" ref={list}>
          {shown.map((entry, i) => (
            <li
              key={entry.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === at}
              data-index={i}
              className="palette-item"
              onMouseMove={() => i !== at && setActive(i)}
              onMouseDown={(e) => {
                e.preventDefault()
                entry.run()
              }}
            >
              {entry.icon && <entry.icon size={16} aria-hidden="true" className="palette-item-icon" />}
              <span className="palette-item-label">{entry.label}</span>
              {entry.detail && <span className="palette-item-detail">{entry.detail}</span>}
              {entry.keys && <kbd className="ui-kbd">{keyLabel(entry.keys)}</kbd>}
              {entry.more && <ChevronRight size={16} aria-hidden="true" className="palette-item-more" />}
            </li>
          ))}
        </ul>
        {shown.length === 0 && (
          <p className="palette-empty" role="status">
            {mode === 'conversations' && entries.length === 0
              ? t('shell.palette.noConversations')
              : t('shell.palette.noMatch', { query })}
          </p>
        )}
        <p className="palette-footer" aria-hidden="true">
          <span>
            <kbd className="ui-kbd">↑</kbd> <kbd className="ui-kbd">↓</kbd> {t('shell.palette.move')}
          </span>
          <span>
            <kbd className="ui-kbd">Enter</kbd> {t('shell.palette.run')}
          </span>
          {mode !== 'commands' && (
            <span>
              <kbd className="ui-kbd">⌫</kbd> {t('shell.palette.back')}
            </span>
          )}
        </p>
      </div>
    </div>
  )
}
