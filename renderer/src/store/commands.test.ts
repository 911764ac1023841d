import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Flow, FlowPatch, Node } from '@shared/contract'
import { fakeClient } from '../../../tests/renderer/support/fakeClient'
import { createAppStore, type App, type AppStore } from '.'
import { command, nodeCommand, nodeCommandLabel, nodeCommands } from './commands'

function node(id: string, prompt: string, response: string): Node {
  return {
    id,
    timestamp: '2025-01-01T00:00:00+00:00',
    prompt,
    response,
    status: 'complete',
    error: null,
    metadata: { model: 'm', stats: {}, summary: { text: '', updated: false, last_built: null }, tags: [] },
  } as Node
}

/** Root a with one reply b right below it (where the layout puts a first child), both placed by the user. */
function flowOf(pinnedB: boolean): Flow {
  return {
    id: 'f1',
    name: 'Trip',
    description: '',
    created: '2025-01-01T00:00:00+00:00',
    updated: '2025-01-01T00:00:00+00:00',
    persona_id: null,
    system_prompt: '',
    token_budget: null,
    memory_private: false,
    nodes: [
      { index: 1, id: 'a', position: { x: 0, y: 0 }, pinned: false },
      { index: 2, id: 'b', position: { x: 0, y: 260 }, pinned: pinnedB },
    ],
    connections: [{ from: 'a', to: 'b' }],
  }
}

/** A client that answers the graph and chat calls the node commands make, recording each call. */
function graphClient(options: { retryFails?: boolean } = {}) {
  return fakeClient((method, input) => {
    switch (method) {
      case 'chat_retry':
        return options.retryFails
          ? { ok: false, error: { code: 'unavailable', message: 'no provider answers' } }
          : { ok: true, value: { node_id: 'c' } }
      case 'get_node':
        return { ok: true, value: node(input.id as string, 'Where to?', 'Lisbon, again') }
      case 'set_pinned':
        return { ok: true, value: flowOf(input.pinned as boolean) }
      case 'list_tool_calls':
      case 'mcp_tool_calls':
        return { ok: true, value: [] }
      case 'get_undo_state':
        return { ok: true, value: { can_undo: false, can_redo: false, undo_label: null, redo_label: null } }
      default:
        return undefined
    }
  })
}

/** A store with flow f1 open: a → b. */
function openStore(options: { retryFails?: boolean } = {}) {
  const fake = graphClient(options)
  const store = createAppStore(fake.client)
  store.setState({ flowId: 'f1', flowVersion: 1, positions: { a: { x: 0, y: 0 }, b: { x: 0, y: 260 } } })
  store.getState().applyFlow(flowOf(false))
  store.getState().upsertNode(node('a', 'Plan a trip', 'Where to?'))
  store.getState().upsertNode(node('b', 'Where to?', 'Lisbon'))
  return { store, ...fake }
}

/** Resolves once the store satisfies the condition (checked on every change). */
function until(store: AppStore, ok: (s: App) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (ok(store.getState())) return resolve()
    const stop = store.subscribe((s) => {
      if (!ok(s)) return
      stop()
      resolve()
    })
  })
}

afterEach(() => vi.unstubAllGlobals())

describe('node commands', () => {
  it('keep the context menu’s order and labels', () => {
    const { store } = openStore()
    const labels = nodeCommands.map((c) => nodeCommandLabel(c, store.getState(), 'b'))
    expect(labels).toEqual([
      'graph.retry',
      'graph.editPrompt',
      'graph.branchHere',
      'graph.pin',
      'graph.copy',
      'links.copy',
      'memory.whyRemembered',
      'graph.delete',
    ])
    expect(nodeCommands.filter((c) => c.danger).map((c) => c.id)).toEqual(['node.delete'])
  })

  it('apply only to nodes of the open flow', () => {
    const { store } = openStore()
    expect(nodeCommands.every((c) => c.enabled(store.getState(), 'b'))).toBe(true)
    expect(nodeCommands.filter((c) => c.enabled(store.getState(), 'elsewhere'))).toEqual([])
    store.getState().applyFlow({ ...flowOf(false), nodes: flowOf(false).nodes.slice(0, 1), connections: [] })
    expect(nodeCommands.filter((c) => c.enabled(store.getState(), 'b'))).toEqual([])
  })

  it('retry asks again beside the node and selects the new reply', async () => {
    const { store, calls } = openStore()
    nodeCommand('node.retry').run(store.getState(), 'b')
    await until(store, (s) => s.selectedId === 'c')
    const retry = calls.find((c) => c.method === 'chat_retry')!
    expect(retry.input).toMatchObject({ flow_id: 'f1', node_id: 'b', position: { y: 260 } })
    // Beside b, not on top of it.
    expect((retry.input.position as { x: number }).x).toBeGreaterThan(0)
    expect(store.getState().nodes.c?.response).toBe('Lisbon, again')
  })

  it('a failed retry says why in a toast and selects nothing', async () => {
    const { store } = openStore({ retryFails: true })
    nodeCommand('node.retry').run(store.getState(), 'b')
    await until(store, (s) => s.toasts.length > 0)
    expect(store.getState().toasts).toMatchObject([{ kind: 'error', message: 'no provider answers' }])
    expect(store.getState().selectedId).toBeNull()
  })

  it('pin and unpin follow the node’s state', async () => {
    const { store, calls, emit } = openStore()
    const pin = nodeCommand('node.pin')
    pin.run(store.getState(), 'b')
    await until(store, () => calls.some((c) => c.method === 'set_pinned'))
    expect(calls.find((c) => c.method === 'set_pinned')!.input).toEqual({ flow_id: 'f1', node_id: 'b', pinned: true })

    const { nodes, connections: _, ...fields } = flowOf(true)
    emit('flow_changed', {
      flow_id: 'f1',
      version: 2,
      previous: 1,
      whole: false,
      flow: fields,
      summary: null,
      members: nodes.filter((m) => m.id === 'b'),
      removed: [],
      targets: [],
      connections: [],
    } satisfies FlowPatch)
    expect(nodeCommandLabel(pin, store.getState(), 'b')).toBe('graph.unpin')
    pin.run(store.getState(), 'b')
    await until(store, () => calls.filter((c) => c.method === 'set_pinned').length === 2)
    expect(calls.filter((c) => c.method === 'set_pinned')[1]!.input).toMatchObject({ pinned: false })
  })

  it('edit prompt and delete open their dialogs for the node', () => {
    const { store } = openStore()
    nodeCommand('node.editPrompt').run(store.getState(), 'b')
    expect(store.getState().modal).toEqual({ name: 'edit_prompt', nodeId: 'b' })
    nodeCommand('node.delete').run(store.getState(), 'b')
    expect(store.getState().modal).toEqual({ name: 'delete_node', nodeId: 'b' })
  })

  it('why remembered opens the memory panel on the node', () => {
    const { store } = openStore()
    nodeCommand('node.whyRemembered').run(store.getState(), 'b')
    expect(store.getState()).toMatchObject({ panel: 'memory', memoryView: 'why', memoryWhyNodeId: 'b' })
  })

  it('branch here selects the node and puts the cursor in the composer', () => {
    const { store } = openStore()
    const focus = vi.fn()
    vi.stubGlobal('document', { getElementById: (id: string) => (id === 'composer-input' ? { focus } : null) })
    nodeCommand('node.branchHere').run(store.getState(), 'a')
    expect(store.getState().selectedId).toBe('a')
    expect([...store.getState().activeIds]).toEqual(['a'])
    expect(focus).toHaveBeenCalledOnce()
  })

  it('copy puts the prompt and the reply on the clipboard', () => {
    const { store } = openStore()
    const writeText = vi.fn(async () => {})
    vi.stubGlobal('navigator', { clipboard: { writeText } })
    nodeCommand('node.copy').run(store.getState(), 'b')
    expect(writeText).toHaveBeenCalledWith('Where to?\n\nLisbon')
  })

  it('copy link puts the whole address of the message on the clipboard, never the token, and says so', async () => {
    const { store } = openStore()
    const writeText = vi.fn(async () => {})
    vi.stubGlobal('navigator', { clipboard: { writeText } })
    vi.stubGlobal('window', {
      location: { origin: 'http://127.0.0.1:8080', protocol: 'http:', pathname: '/', search: '?token=secret' },
    })
    nodeCommand('node.copyLink').run(store.getState(), 'b')
    expect(writeText).toHaveBeenCalledWith('http://127.0.0.1:8080/#flow=f1&node=b')
    await until(store, (s) => s.toasts.length > 0)
    expect(store.getState().toasts[0]).toMatchObject({ kind: 'info' })
  })
})

describe('view commands', () => {
  it('switch the conversation area between transcript, both and graph, offering only the others', () => {
    const { store } = openStore()
    store.getState().setReadingLayout('both')
    expect(command('view.both').enabled(store.getState())).toBe(false)
    expect(command('view.graph').enabled(store.getState())).toBe(true)
    command('view.graph').run(store.getState())
    expect(store.getState().readingLayout).toBe('graph')
    command('view.transcript').run(store.getState())
    expect(store.getState().readingLayout).toBe('transcript')
    store.setState({ flowId: null })
    expect(command('view.both').enabled(store.getState())).toBe(false) // nothing open to view
  })
})
