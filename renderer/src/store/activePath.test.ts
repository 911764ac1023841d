import { describe, expect, it } from 'vitest'
import type { Flow } from '@shared/contract'
import { flowOf as flowNamed } from '../../../tests/renderer/support/flowOf'
import { flowShape, newestLeafBelow, readingPath, resolveLeaf } from './activePath'

/** A flow from "a>b" edges; nodes arrive in the order listed. */
const flowOf = (ids: string[], edges: string[]): Flow => flowNamed('f', ids, edges)

describe('the transcript’s path', () => {
  // 1 → 2 → 3, a retry of 2 (4) with its own reply below it (5), and an edited first prompt (6).
  const flow = flowOf(['1', '2', '3', '4', '5', '6'], ['1>2', '2>3', '1>4', '4>5'])

  it('reads root to leaf, each node after its parents, even when arrival order differs', () => {
    expect(readingPath(flow, '3')).toEqual(['1', '2', '3'])
    // #3 re-parented under #4: its parent arrived after it, and still comes first.
    expect(readingPath(flowOf(['1', '2', '3', '4'], ['1>2', '1>4', '4>3']), '3')).toEqual(['1', '4', '3'])
    // A merge reads both branches before the node that joins them.
    expect(readingPath(flowOf(['1', '2', '3', '4'], ['1>2', '1>4', '2>3', '4>3']), '3')).toEqual(['1', '2', '4', '3'])
    expect(readingPath(flow, 'gone')).toEqual([])
  })

  it('groups alternatives by their parents, oldest first; roots are alternatives of each other', () => {
    const { alternatives } = flowShape(flow)
    expect(alternatives.get('2')).toEqual(['2', '4'])
    expect(alternatives.get('4')).toEqual(['2', '4'])
    expect(alternatives.get('1')).toEqual(['1', '6'])
    expect(alternatives.get('3')).toEqual(['3'])
  })

  it('switching to an alternative reads down to the newest leaf below it', () => {
    expect(newestLeafBelow(flow, '4')).toBe('5')
    expect(newestLeafBelow(flow, '1')).toBe('5')
    expect(newestLeafBelow(flow, '3')).toBe('3')
  })

  it('choosing a message on the path keeps the path; choosing elsewhere follows the choice', () => {
    expect(resolveLeaf(flow, '3', '2')).toBe('3') // reading an earlier message
    expect(resolveLeaf(flow, '3', '1')).toBe('3')
    expect(resolveLeaf(flow, '3', '4')).toBe('5') // a node on another branch
    expect(resolveLeaf(flow, '3', '6')).toBe('6')
    expect(resolveLeaf(flow, '3', null)).toBe('3') // nothing chosen: the path stays
    expect(resolveLeaf(flow, 'gone', null)).toBe('6') // …unless it is gone: the newest leaf
    expect(resolveLeaf(flowOf([], []), null, null)).toBeNull()
    // The leaf gained a turn from elsewhere (another window): the path reads on to it.
    expect(resolveLeaf(flowOf(['1', '2', '3'], ['1>2', '2>3']), '2', '2')).toBe('3')
    expect(resolveLeaf(flowOf(['1', '2', '3'], ['1>2', '2>3']), '2', null)).toBe('3')
  })
})
