import { describe, expect, it } from 'vitest'
import { IMPORT_TEXT_MAX, MAX_IMPORT_DEPTH, MAX_IMPORT_FLOW_TEXT, MAX_IMPORT_MESSAGES } from '../../kernel/importLimits'
import { chatgptMessage as message, layeredMessages, type Mapping } from '../../../tests/support/foreignFiles'
import { OverLimit, type Conversation, pairNodes, planConversation } from './conversationTree'

// The walk over a conversation's messages: each taken once, under the parent it names itself,
// and every limit met before a reply is joined.

// Built as the schema would give it, not parsed: checking 200,000 messages costs zod seconds.
const conversation = (mapping: Mapping) => ({ title: 't', create_time: 1_700_000_000, mapping }) as Conversation
const pairs = async (mapping: Mapping) => pairNodes(await planConversation(conversation(mapping)))

/** The reason planConversation gives for refusing the conversation. */
async function overLimit(mapping: Mapping): Promise<string> {
  try {
    await planConversation(conversation(mapping))
  } catch (e) {
    if (e instanceof OverLimit) return e.message
    throw e
  }
  throw new Error('the conversation was within every limit')
}

describe('planConversation: the message tree', () => {
  it('puts a message under the parent it names, whatever other children lists claim', async () => {
    const nodes = await pairs({
      root: { message: null, parent: null, children: ['u'] },
      u: { message: message('user', 'q'), parent: 'root', children: ['a2', 'a1'] },
      a1: { message: message('assistant', 'one'), parent: 'u', children: ['u2'] },
      a2: { message: message('assistant', 'two'), parent: 'u', children: ['u2'] },
      // a2 claims u2 too; u2 names a1.
      u2: { message: message('user', 'again'), parent: 'a1', children: [] },
    })
    expect(nodes.map((n) => [n.prompt, n.response, n.parents])).toEqual([
      ['q', 'two', []], // the order of the parent's list
      ['q', 'one', []],
      ['again', '', [1]],
    ])
  }, 20_000)

  it('counts messages caught in a loop of parents, reached from nowhere', async () => {
    const plan = await planConversation(
      conversation({
        root: { message: null, parent: null, children: ['a'] },
        a: { message: message('user', 'a'), parent: 'b', children: ['b'] },
        b: { message: message('user', 'b'), parent: 'a', children: ['a'] },
      }),
    )
    expect(plan.nodes).toEqual([])
    expect(plan.skipped).toEqual(new Map([['messages caught in a loop of parents', 2]]))
  }, 20_000)

  it('makes one node per branch of 46 messages with 2^22 paths', async () => {
    const plan = await planConversation(conversation(layeredMessages(22)))
    expect(plan.nodes).toHaveLength(23)
    const lines = pairNodes(plan).map((n) => n.response.split('\n\n').length)
    expect(Math.max(...lines)).toBe(22)
  }, 20_000)
})

describe('planConversation: limits', () => {
  it('refuses more messages than the limit', async () => {
    const mapping: Mapping = {}
    for (let i = 0; i <= MAX_IMPORT_MESSAGES; i++) mapping[`m${i}`] = { message: null, parent: null, children: [] }
    expect(await overLimit(mapping)).toBe(
      `${MAX_IMPORT_MESSAGES + 1} messages, over the limit of ${MAX_IMPORT_MESSAGES}`,
    )
  }, 20_000)

  it('refuses a line of prompts deeper than the limit', async () => {
    const mapping: Mapping = { root: { message: null, parent: null, children: ['u0'] } }
    for (let i = 0; i <= MAX_IMPORT_DEPTH; i++)
      mapping[`u${i}`] = { message: message('user', 'q'), parent: i ? `u${i - 1}` : 'root', children: [`u${i + 1}`] }
    expect(await overLimit(mapping)).toBe(
      `more than ${MAX_IMPORT_DEPTH} prompts and replies one under another, the limit`,
    )
  }, 20_000)

  it('refuses a reply that grows past the text limit across messages', async () => {
    const half = 'x'.repeat(IMPORT_TEXT_MAX / 2 + 1)
    expect(
      await overLimit({
        root: { message: null, parent: null, children: ['u'] },
        u: { message: message('user', 'q'), parent: 'root', children: ['a1'] },
        a1: { message: message('assistant', half), parent: 'u', children: ['a2'] },
        a2: { message: message('assistant', half), parent: 'a1', children: [] },
      }),
    ).toBe(`a reply longer than the limit of ${IMPORT_TEXT_MAX} characters`)
  }, 20_000)

  it('refuses a reply shared by more branches than the conversation’s text allows, before joining any', async () => {
    // One long reply and 40 short ones below it: each branch repeats the long one.
    const mapping: Mapping = {
      root: { message: null, parent: null, children: ['u'] },
      u: { message: message('user', 'q'), parent: 'root', children: ['long'] },
      long: { message: message('assistant', 'x'.repeat(IMPORT_TEXT_MAX - 100)), parent: 'u', children: [] },
    }
    for (let i = 0; i < 40; i++) {
      mapping[`a${i}`] = { message: message('assistant', `${i}`), parent: 'long', children: [] }
      mapping.long!.children.push(`a${i}`)
    }
    expect(await overLimit(mapping)).toBe(
      `more than ${MAX_IMPORT_FLOW_TEXT} characters of text, the limit for a conversation`,
    )
  }, 20_000)
})
