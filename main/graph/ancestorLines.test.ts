import { describe, expect, it } from 'vitest'
import type { Node } from '@shared/contract'
import { AppError } from '@shared/errors'
import { EventBus } from '../kernel/events'
import { buildContext } from './context'
import { GraphService } from './graphService'
import { seededRandom } from '../../tests/support/seededRandom'
import { useTwoConnections } from '../../tests/support/twoConnections'

// A prompt's history lists its ancestors' lines kept from earlier prompts. It must always be
// the history built from the database as it is: after every write to a node's text or summary,
// by the app or by another connection (the job worker's summaries, the CLI), and after undo.

const twoConnections = useTwoConnections()

function setup() {
  const { db, other } = twoConnections()
  const graph = new GraphService(db, new EventBus())
  let reads = 0
  /** The history below `parent`, oldest first; `kept: false` builds every line from the database. */
  const history = (flowId: string, parent: string, kept = true) => {
    const flow = graph.contextFlow(flowId, [parent])
    const node = (id: string): Node => {
      reads++
      return graph.getNode(id)
    }
    const context = buildContext({
      flow: kept ? flow : { ...flow, lines: null },
      node,
      parentIds: [parent],
      prompt: 'next',
      budget: 100_000,
      language: 'en',
    })
    return context.parts.filter((p) => p.kind === 'ancestor_summary').map((p) => `${p.text} (${p.tokens})`)
  }
  /** As the job worker's summary job writes a summary: from its own connection. */
  const summarizeElsewhere = (id: string, text: string) =>
    other.prepare('UPDATE nodes SET summary_text = ?, summary_updated = 0 WHERE id = ?').run(text, id)
  /** A turn and a prompt below it, read once (so the turn's line is kept); `firstLine` is the turn's line in the next history. */
  const twoTurns = (rootPrompt: string) => {
    const f = graph.createFlow({ name: 'a' }).id
    const root = graph.createNode({ flow_id: f, prompt: rootPrompt }).id
    const child = graph.createNode({ flow_id: f, prompt: 'and then?', parent_ids: [root] }).id
    const firstLine = () => history(f, child)[0]
    expect(firstLine()).toContain(rootPrompt)
    return { root, firstLine }
  }
  return { db, graph, history, summarizeElsewhere, twoTurns, reads: () => reads }
}

describe("the ancestors' lines kept between prompts", () => {
  it('equal the lines built afresh after every write, undo and redo (300 random edits)', () => {
    const { graph, history, summarizeElsewhere, reads } = setup()
    const next = seededRandom(20261126)
    const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)]
    const f = graph.createFlow({ name: 'a' }).id
    const nodes = () => graph.getFlow(f).nodes.map((m) => graph.getNode(m.id))
    let turn = 0
    const edits: Array<() => void> = [
      () => {
        const parent = pick(nodes())
        const n = graph.createNode({ flow_id: f, prompt: `turn ${turn++}`, parent_ids: parent ? [parent.id] : [] })
        graph.setReply(n.id, { status: 'complete', response: `reply ${turn} `.repeat(1 + Math.floor(next() * 80)) })
      },
      () => {
        const n = pick(nodes())
        if (n) graph.setReply(n.id, { status: 'incomplete', response: `${n.response} and more` })
      },
      () => {
        const n = pick(nodes())
        if (n) graph.updateNode({ id: n.id, prompt: `${n.prompt} (edited)` })
      },
      () => {
        const n = pick(nodes())
        if (n) summarizeElsewhere(n.id, next() < 0.8 ? `summary ${turn} of ${n.prompt}` : '')
      },
      () => {
        const n = pick(nodes())
        if (n) graph.deleteNode({ id: n.id, flow_id: f, mode: 'reattach' })
      },
      () => graph.undo(f),
      () => graph.redo(f),
    ]
    let compared = 0
    for (let i = 0; i < 300; i++) {
      const edit = i < 40 || next() < 0.3 ? edits[0]! : pick(edits)!
      try {
        edit()
      } catch (e) {
        if (!(e instanceof AppError)) throw e // a refused edit (nothing to undo) changes nothing
      }
      // Two prompts below a random node: the second reuses the lines the first kept.
      const below = pick(nodes())
      if (!below) continue
      const first = history(f, below.id)
      expect(first, `after edit ${i}`).toEqual(history(f, below.id, false))
      expect(history(f, below.id), `again after edit ${i}`).toEqual(first)
      compared++
    }
    expect(compared).toBeGreaterThan(250)
    // A long history read once is not read again for the next prompt below its newest turn.
    const chain = [nodes().at(-1)!.id]
    for (let i = 0; i < 100; i++)
      chain.push(graph.createNode({ flow_id: f, prompt: `c${i}`, parent_ids: [chain.at(-1)!] }).id)
    history(f, chain.at(-2)!)
    const before = reads()
    expect(history(f, chain.at(-1)!).length).toBeGreaterThan(100)
    expect(reads() - before).toBeLessThan(5)
  }, 60_000)

  it("show the job worker's new summary in the very next prompt", () => {
    const { twoTurns, summarizeElsewhere } = setup()
    const { root, firstLine } = twoTurns('We met at the lake')
    summarizeElsewhere(root, 'First meeting, by the lake')
    expect(firstLine()).toContain('First meeting, by the lake')
  })

  it('keep nothing a rolled-back write showed', () => {
    const { db, twoTurns } = setup()
    const { root, firstLine } = twoTurns('the original words')
    expect(() =>
      db
        .transaction(() => {
          db.prepare('UPDATE nodes SET prompt = ? WHERE id = ?').run('words that never were', root)
          expect(firstLine()).toContain('words that never were')
          throw new Error('roll back')
        })
        .immediate(),
    ).toThrow('roll back')
    expect(firstLine()).toContain('the original words')
  })
})
