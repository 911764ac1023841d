import { describe, expect, it } from 'vitest'
import type { Flow, Story } from '@shared/contract'
import { fakeClient } from '../../../tests/renderer/support/fakeClient'
import { flowOf } from '../../../tests/renderer/support/flowOf'
import { createAppStore } from './index'

function storeWith(flow: Flow) {
  const store = createAppStore(fakeClient(() => undefined).client)
  store.setState({ flowId: flow.id, flow })
  return store
}

describe('the transcript’s path follows the selection', () => {
  // 1 → 2 → 3, and a retry of 2 (4) with a reply below it (5).
  const flow = flowOf('f', ['1', '2', '3', '4', '5'], ['1>2', '2>3', '1>4', '4>5'])

  it('reads to the chosen leaf, and keeps the path while an earlier message on it is chosen', () => {
    const store = storeWith(flow)
    store.getState().select('3')
    expect(store.getState().leafId).toBe('3')
    store.getState().chooseFromTranscript('1')
    expect(store.getState().selectedId).toBe('1')
    expect(store.getState().leafId).toBe('3')
    // A node on another branch: the path goes down to the newest leaf below it.
    store.getState().select('4')
    expect(store.getState().leafId).toBe('5')
  })

  it('‹ › moves the path to the alternative’s newest leaf and continues there', () => {
    const store = storeWith(flow)
    store.getState().select('3')
    store.getState().showAlternative('4')
    expect(store.getState().leafId).toBe('5')
    expect(store.getState().selectedId).toBe('5')
    store.getState().showAlternative('2')
    expect(store.getState().leafId).toBe('3')
  })

  it('reads on to turns added under its leaf from elsewhere, and starts afresh in another conversation', () => {
    const store = storeWith(flow)
    store.getState().select('3')
    store.getState().applyFlow(flowOf('f', ['1', '2', '3', '4', '5', '6'], ['1>2', '2>3', '1>4', '4>5', '3>6']))
    expect(store.getState().leafId).toBe('6')
    expect(store.getState().selectedId).toBe('3') // where the next prompt goes is still the user's choice
    store.setState({ flowId: 'g', flow: flowOf('g', ['a', 'b'], ['a>b']), selectedId: null })
    expect(store.getState().leafId).toBe('b')
  })

  it('in a story, reads up to where play stands: an undone turn or an earlier message chosen ends the text there', () => {
    const store = storeWith(flow)
    const story = { id: 's', flow_id: 'f', current_node_id: '3', redo_node_id: null } as unknown as Story
    store.getState().select('3')
    store.setState({ story })
    expect(store.getState().leafId).toBe('3')
    store.getState().select('2') // undo: play stands at 2, and 3 stays in the graph as a branch
    expect(store.getState().leafId).toBe('2')
    // Without the story the same choice reads on to the newest turn below it, as a chat does.
    store.setState({ story: null })
    expect(store.getState().leafId).toBe('3')
  })

  it('sets the layout, and keeps the split within its range (a quarter to four fifths)', () => {
    const store = storeWith(flow)
    expect(store.getState().readingLayout).toBe('both')
    store.getState().setReadingLayout('graph')
    expect(store.getState().readingLayout).toBe('graph')
    store.getState().setReadingSplit(0.02)
    expect(store.getState().readingSplit).toBe(0.25)
    store.getState().setReadingSplit(0.7)
    expect(store.getState().readingSplit).toBe(0.7)
  })
})
