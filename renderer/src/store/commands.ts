import i18next from 'i18next'
import { placeSibling } from './placement'
import { linkUrl } from './links'
import type { App } from '.'
import { useShell } from './shell'

/**
 * Every keyboard shortcut and toolbar action in one place (excalidraw's pattern): a command
 * says when it applies and what it does; the UI only looks commands up by id.
 */
export interface Command {
  id: string
  /** i18n key of the label. */
  label: string
  keyTest?: (e: KeyboardEvent) => boolean
  enabled: (s: App) => boolean
  run: (s: App) => void
  /** The shortcut as the shortcuts list shows it, `Mod` standing for Ctrl (⌘ on a Mac). */
  keys?: string
  /** Also while typing in a field (the palette's own shortcut). */
  global?: boolean
  /** Left out of the command palette (it is the palette, or only makes sense as a key). */
  hidden?: boolean
}

const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey
const always = () => true
const shell = () => useShell.getState()
const openPanel = (s: App, panel: 'search' | 'memory' | 'context' | 'story') => {
  if (s.panel !== panel) s.togglePanel(panel)
}

export const commands: Command[] = [
  {
    id: 'undo',
    label: 'graph.undo',
    keyTest: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'z',
    enabled: (s) => s.undo.can_undo,
    run: (s) => void s.undoEdit(),
    keys: 'Mod+Z',
  },
  {
    id: 'redo',
    label: 'graph.redo',
    keyTest: (e) => mod(e) && ((e.shiftKey && e.key.toLowerCase() === 'z') || e.key.toLowerCase() === 'y'),
    enabled: (s) => s.undo.can_redo,
    run: (s) => void s.redoEdit(),
    keys: 'Mod+Shift+Z',
  },
  {
    id: 'palette.open',
    label: 'shell.cmd.palette',
    keyTest: (e) => mod(e) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'k',
    keys: 'Mod+K',
    global: true,
    hidden: true,
    enabled: always,
    run: () => (shell().palette ? shell().closePalette() : shell().openPalette()),
  },
  {
    id: 'shortcuts.show',
    label: 'shell.cmd.shortcuts',
    keyTest: (e) => mod(e) && !e.altKey && (e.key === '/' || e.code === 'Slash'),
    keys: 'Mod+/',
    global: true,
    enabled: always,
    run: () => shell().setShortcutsOpen(!shell().shortcutsOpen),
  },
  {
    id: 'conversation.new',
    label: 'shell.cmd.newConversation',
    keyTest: (e) => mod(e) && e.altKey && e.key.toLowerCase() === 'n',
    keys: 'Mod+Alt+N',
    enabled: always,
    run: (s) => void s.createFlow(i18next.t('graph.defaultFlowName')),
  },
  {
    id: 'conversation.switch',
    label: 'shell.cmd.switchConversation',
    enabled: (s) => s.flows.length > 0,
    run: () => shell().openPalette('conversations'),
  },
  {
    id: 'persona.choose',
    label: 'shell.cmd.choosePersona',
    enabled: (s) => s.personas.length > 0,
    run: () => shell().openPalette('personas'),
  },
  {
    id: 'personas.manage',
    label: 'shell.cmd.personas',
    enabled: always,
    run: (s) => s.openModal({ name: 'personas' }),
  },
  {
    id: 'lorebooks.open',
    label: 'shell.cmd.lorebooks',
    enabled: always,
    run: (s) => s.openModal({ name: 'lorebooks' }),
  },
  {
    id: 'scene.open',
    label: 'shell.cmd.scene',
    enabled: (s) => s.flowId !== null && (s.story?.flow_id ?? null) !== s.flowId,
    run: (s) => s.flowId && s.openModal({ name: 'scene', flowId: s.flowId }),
  },
  {
    id: 'composer.focus',
    label: 'shell.cmd.focusComposer',
    enabled: (s) => s.flowId !== null,
    run: () => document.getElementById('composer-input')?.focus(),
  },
  { id: 'search.open', label: 'shell.cmd.search', enabled: always, run: (s) => openPanel(s, 'search') },
  { id: 'memory.open', label: 'shell.cmd.memory', enabled: always, run: (s) => openPanel(s, 'memory') },
  {
    id: 'context.open',
    label: 'shell.cmd.context',
    enabled: (s) => s.flowId !== null,
    run: (s) => openPanel(s, 'context'),
  },
  { id: 'stories.open', label: 'shell.cmd.stories', enabled: always, run: (s) => s.openModal({ name: 'stories' }) },
  {
    id: 'story.panel',
    label: 'shell.cmd.storyPanel',
    enabled: (s) => s.story !== null,
    run: (s) => openPanel(s, 'story'),
  },
  {
    id: 'story.undo',
    label: 'shell.cmd.storyUndo',
    enabled: (s) => s.story !== null && s.story.flow_id === s.flowId,
    run: (s) => void s.moveStory({ method: 'story_undo' }),
  },
  {
    id: 'story.redo',
    label: 'shell.cmd.storyRedo',
    enabled: (s) => s.story !== null && s.story.flow_id === s.flowId && s.story.redo_node_id !== null,
    run: (s) => void s.moveStory({ method: 'story_redo' }),
  },
  ...(['transcript', 'both', 'graph'] as const).map((layout): Command => ({
    id: `view.${layout}`,
    label: `shell.cmd.view.${layout}`,
    enabled: (s) => s.flowId !== null && s.readingLayout !== layout,
    run: (s) => s.setReadingLayout(layout),
  })),
  {
    id: 'panel.close',
    label: 'shell.cmd.closePanel',
    enabled: (s) => s.panel !== null,
    run: (s) => s.togglePanel(s.panel!),
  },
  { id: 'settings.open', label: 'shell.cmd.settings', enabled: always, run: () => shell().setSettingsOpen(true) },
  { id: 'providers.open', label: 'providers.open', enabled: always, run: (s) => s.openModal({ name: 'providers' }) },
  { id: 'transfer.open', label: 'transfer.open', enabled: always, run: (s) => s.openModal({ name: 'transfer' }) },
  { id: 'programs.open', label: 'programs.open', enabled: always, run: (s) => s.openModal({ name: 'programs' }) },
  { id: 'mcp.open', label: 'mcp.open', enabled: always, run: (s) => s.openModal({ name: 'tools' }) },
  {
    id: 'mcp.attachResource',
    label: 'mcp.resources.open',
    enabled: (s) => s.flowId !== null && (s.mcpServers?.servers.length ?? 0) > 0,
    run: (s) => s.openModal({ name: 'mcp_resources' }),
  },
  {
    id: 'mcp.prompts',
    label: 'mcp.prompts.open',
    enabled: (s) => s.flowId !== null && (s.mcpServers?.servers.length ?? 0) > 0,
    run: (s) => s.openModal({ name: 'mcp_prompt' }),
  },
  { id: 'backup.open', label: 'backup.open', enabled: always, run: (s) => s.openModal({ name: 'backup' }) },
  ...(['light', 'dark', 'system'] as const).map((theme): Command => ({
    id: `theme.${theme}`,
    label: `shell.cmd.theme.${theme}`,
    enabled: (s) => s.settings !== null && s.settings.theme !== theme,
    run: (s) => void s.updateSettings({ theme }),
  })),
  ...(['en', 'ja', 'auto'] as const).map((language): Command => ({
    id: `language.${language}`,
    label: `shell.cmd.language.${language}`,
    enabled: (s) => s.settings !== null && s.settings.language !== language,
    run: (s) => void s.updateSettings({ language }),
  })),
]

export function command(id: string): Command {
  const found = commands.find((c) => c.id === id)
  if (!found) throw new Error(`no command ${id}`)
  return found
}

/**
 * What the user can do to one node of the open flow (its context menu). The menu renders
 * these in order; tests and other entry points run them by id.
 */
export interface NodeCommand {
  id: string
  /** i18n key of the label; a function when it depends on the node (Pin / Unpin). */
  label: string | ((s: App, nodeId: string) => string)
  /** Destructive: drawn in the danger colour. */
  danger?: boolean
  enabled: (s: App, nodeId: string) => boolean
  run: (s: App, nodeId: string) => void
}

/** A node's actions apply while it is part of the open flow. */
const inFlow = (s: App, nodeId: string) => s.members[nodeId] !== undefined
const isPinned = (s: App, nodeId: string) => s.members[nodeId]?.pinned ?? false

export const nodeCommands: NodeCommand[] = [
  {
    id: 'node.retry',
    label: 'graph.retry',
    enabled: inFlow,
    run: (s, nodeId) => void s.retry(nodeId, s.flow ? placeSibling(s.flow, s.positions, nodeId) : undefined),
  },
  {
    id: 'node.editPrompt',
    label: 'graph.editPrompt',
    enabled: (s, nodeId) => inFlow(s, nodeId) && s.nodes[nodeId] !== undefined,
    run: (s, nodeId) => s.openModal({ name: 'edit_prompt', nodeId }),
  },
  {
    id: 'node.branchHere',
    label: 'graph.branchHere',
    enabled: inFlow,
    run: (s, nodeId) => {
      // The next prompt continues from the selected node: put the cursor where it is typed.
      s.select(nodeId)
      document.getElementById('composer-input')?.focus()
    },
  },
  {
    id: 'node.pin',
    label: (s, nodeId) => (isPinned(s, nodeId) ? 'graph.unpin' : 'graph.pin'),
    enabled: inFlow,
    run: (s, nodeId) => void s.setPinned(nodeId, !isPinned(s, nodeId)),
  },
  {
    id: 'node.copy',
    label: 'graph.copy',
    enabled: (s, nodeId) => s.nodes[nodeId] !== undefined,
    run: (s, nodeId) => {
      const n = s.nodes[nodeId]
      if (n) void navigator.clipboard?.writeText(n.response ? `${n.prompt}\n\n${n.response}` : n.prompt)
    },
  },
  {
    id: 'node.copyLink',
    label: 'links.copy',
    enabled: (s, nodeId) => inFlow(s, nodeId) && s.flowId !== null,
    run: (s, nodeId) => {
      if (!s.flowId) return
      const url = linkUrl(s.flowId, nodeId)
      void navigator.clipboard
        ?.writeText(url)
        .then(() => s.toast('info', i18next.t('links.copied')))
        .catch(() => s.toast('error', i18next.t('links.copyFailed', { url })))
    },
  },
  {
    id: 'node.whyRemembered',
    label: 'memory.whyRemembered',
    enabled: inFlow,
    run: (s, nodeId) => s.showWhyRemembered(nodeId),
  },
  {
    id: 'node.delete',
    label: 'graph.delete',
    danger: true,
    enabled: inFlow,
    run: (s, nodeId) => s.openModal({ name: 'delete_node', nodeId }),
  },
]

export function nodeCommand(id: string): NodeCommand {
  const found = nodeCommands.find((c) => c.id === id)
  if (!found) throw new Error(`no node command ${id}`)
  return found
}

export function nodeCommandLabel(c: NodeCommand, s: App, nodeId: string): string {
  return typeof c.label === 'string' ? c.label : c.label(s, nodeId)
}

/** Text fields keep their own undo: graph shortcuts apply only outside them. */
export function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  )
}
