import { placeSibling } from '../features/graph/layout'
import type { App } from '../store'

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
}

const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey

export const commands: Command[] = [
  {
    id: 'undo',
    label: 'graph.undo',
    keyTest: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'z',
    enabled: (s) => s.undo.can_undo,
    run: (s) => void s.undoEdit(),
  },
  {
    id: 'redo',
    label: 'graph.redo',
    keyTest: (e) => mod(e) && ((e.shiftKey && e.key.toLowerCase() === 'z') || e.key.toLowerCase() === 'y'),
    enabled: (s) => s.undo.can_redo,
    run: (s) => void s.redoEdit(),
  },
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
