import { describe, expect, it, vi } from 'vitest'
import type { FlowGraph, FlowSummary, Node } from '@shared/contract'
import { fakeClient } from '../../../tests/renderer/support/fakeClient'
import { createAppStore } from '.'
import { followLink, linkHash, linkUrl, parseLink } from './links'

const F = '00000000-0000-4000-8000-00000000000f'
const OTHER = '00000000-0000-4000-8000-0000000000f2'
const N1 = '00000000-0000-4000-8000-000000000001'
const N2 = '00000000-0000-4000-8000-000000000002'
const GONE = '00000000-0000-4000-8000-0000000000ff'

function node(id: string, at: string): Node {
  return {
    id,
    timestamp: at,
    prompt: `prompt ${id}`,
    response: 'reply',
    status: 'complete',
    error: null,
    metadata: { model: 'm', stats: {}, summary: { text: '', updated: false, last_built: null }, tags: [] },
  }
}

function summary(id: string, name: string): FlowSummary {
  return {
    id,
    name,
    description: '',
    created: '',
    updated: '',
    persona_id: null,
    node_count: 2,
    pinned: false,
    name_source: 'user',
    last_activity: '',
  }
}

/** One conversation F: N1 → N2 (N2 the newest, where it opens by itself); `hold` delays an open. */
function linkedStore(hold: (input: Record<string, unknown>) => Promise<void> = async () => {}) {
  const graph: FlowGraph = {
    flow: {
      ...summary(F, 'Trip'),
      system_prompt: '',
      token_budget: null,
      nodes: [
        { index: 1, id: N1, position: null, pinned: false },
        { index: 2, id: N2, position: null, pinned: false },
      ],
      connections: [{ from: N1, to: N2 }],
    },
    nodes: [node(N1, '2026-01-01T00:00:00Z'), node(N2, '2026-01-02T00:00:00Z')],
    version: 1,
  }
  const fake = fakeClient(async (method, input) => {
    if (method === 'list_flows') return { ok: true, value: [summary(F, 'Trip'), summary(OTHER, 'Other')] }
    if (method === 'open_flow') await hold(input)
    if (method === 'open_flow')
      return input.id === F ? { ok: true, value: { ...graph, focus_id: N2, complete: true, total: 2 } } : undefined
    if (method === 'get_undo_state')
      return { ok: true, value: { can_undo: false, can_redo: false, undo_label: null, redo_label: null } }
    return undefined
  })
  vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => {} })
  return createAppStore(fake.client)
}

describe('links', () => {
  it('read and write #flow=…&node=…, and ignore what is not one', () => {
    expect(parseLink(linkHash(F, N1))).toEqual({ flowId: F, nodeId: N1 })
    expect(parseLink(`#flow=${F}`)).toEqual({ flowId: F, nodeId: null })
    expect(parseLink(`#flow=${F}&node=not-an-id`)).toEqual({ flowId: F, nodeId: null })
    for (const hash of ['', '#', '#node=' + N1, '#flow=../../etc', '#something-else'])
      expect(parseLink(hash)).toBeNull()
  })

  it('make the whole address without the query, where the token would be', () => {
    const at = { origin: 'http://127.0.0.1:8080', protocol: 'http:', pathname: '/', search: '?token=s' } as Location
    expect(linkUrl(F, N2, at)).toBe(`http://127.0.0.1:8080/#flow=${F}&node=${N2}`)
    const desktop = { origin: 'null', protocol: 'file:', pathname: '/app/index.html', search: '' } as Location
    // The desktop app's page is a file no other program can open: the link goes through the app's scheme.
    expect(linkUrl(F, null, desktop)).toBe(`loomverse://open#flow=${F}`)
    expect(linkUrl(F, N1, desktop)).toBe(`loomverse://open#flow=${F}&node=${N1}`)
  })

  it('open the conversation at the message, selected; a missing one is said and changes nothing', async () => {
    const store = linkedStore()
    expect(await followLink(store, { flowId: F, nodeId: N1 })).toBe(true)
    expect(store.getState()).toMatchObject({ flowId: F, selectedId: N1, focus: { id: N1 } })

    expect(await followLink(store, { flowId: GONE, nodeId: null })).toBe(false)
    expect(store.getState()).toMatchObject({ flowId: F, selectedId: N1 })
    expect(store.getState().toasts.at(-1)).toMatchObject({ kind: 'error' })

    expect(await followLink(store, { flowId: F, nodeId: GONE })).toBe(true)
    expect(store.getState().selectedId).toBe(N1)
    expect(store.getState().toasts.at(-1)).toMatchObject({ kind: 'error' })
  })

  it('follow the last link given: one still opening when another comes does not take the view back', async () => {
    // The first link's conversation is slow to open (a big flow read at start-up, a busy host).
    let release = () => {}
    const slow = new Promise<void>((resolve) => (release = resolve))
    const store = linkedStore((input) => (input.focus_id === N1 ? slow : Promise.resolve()))
    const first = followLink(store, { flowId: F, nodeId: N1 })
    expect(await followLink(store, { flowId: F, nodeId: N2 })).toBe(true)
    release()
    await first
    expect(store.getState()).toMatchObject({ flowId: F, selectedId: N2, focus: { id: N2 } })
  })
})
