import { crc32, deflateSync } from 'node:zlib'

// Files of other apps, written from their public formats, for import tests (unit and e2e).

/** A ChatGPT export conversation: root → system → user → assistant (regenerated once) → user (edited once) → … */
export function chatgptConversation() {
  const msg = (id: string, role: string, text: string | null, t: number, extra: Record<string, unknown> = {}) => ({
    id,
    author: { role, name: null, metadata: {} },
    create_time: t,
    update_time: null,
    content: text === null ? { content_type: 'text', parts: [''] } : { content_type: 'text', parts: [text] },
    status: 'finished_successfully',
    end_turn: true,
    weight: 1,
    metadata: { model_slug: 'gpt-4o' },
    recipient: 'all',
    ...extra,
  })
  const node = (id: string, message: unknown, parent: string | null, children: string[]) => ({
    id,
    message,
    parent,
    children,
  })
  return {
    title: 'Trip to Kyoto',
    create_time: 1_700_000_000,
    update_time: 1_700_000_900,
    conversation_id: 'conv-1',
    current_node: 'a3',
    mapping: {
      root: node('root', null, null, ['sys']),
      sys: node(
        'sys',
        msg('sys', 'system', null, 1_700_000_001, { metadata: { is_visually_hidden_from_conversation: true } }),
        'root',
        ['u1'],
      ),
      u1: node('u1', msg('u1', 'user', 'Where should I go in Kyoto?', 1_700_000_010), 'sys', ['a1', 'a1b']),
      a1: node('a1', msg('a1', 'assistant', 'Kiyomizu-dera and Fushimi Inari.', 1_700_000_020), 'u1', ['u2', 'u2b']),
      a1b: node('a1b', msg('a1b', 'assistant', 'Try Arashiyama.', 1_700_000_030), 'u1', []),
      u2: node(
        'u2',
        {
          ...msg('u2', 'user', null, 1_700_000_040),
          content: {
            content_type: 'multimodal_text',
            parts: [{ content_type: 'image_asset_pointer' }, 'What is this temple?'],
          },
        },
        'a1',
        ['tool1'],
      ),
      tool1: node(
        'tool1',
        msg('tool1', 'assistant', 'search("temple")', 1_700_000_045, { recipient: 'browser' }),
        'u2',
        ['tool2'],
      ),
      tool2: node('tool2', msg('tool2', 'tool', 'results…', 1_700_000_046), 'tool1', ['a2']),
      a2: node('a2', msg('a2', 'assistant', 'That is Kinkaku-ji.', 1_700_000_050), 'tool2', []),
      u2b: node('u2b', msg('u2b', 'user', 'And in autumn?', 1_700_000_060), 'a1', ['a3']),
      a3: node(
        'a3',
        msg('a3', 'assistant', 'Tofuku-ji for the leaves.', 1_700_000_070, { metadata: { model_slug: 'o3' } }),
        'u2b',
        [],
      ),
    },
  }
}

/** A 1×1 PNG with the given `tEXt` chunks, and any other chunks given, before its image data. */
export function pngWith(chunks: Record<string, string>, more: Buffer[] = []): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...Object.entries(chunks).map(([k, v]) => pngChunk('tEXt', Buffer.from(`${k}\0${v}`, 'latin1'))),
    ...more,
    pngChunk('IDAT', deflateSync(Buffer.from([0, 0]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** One PNG chunk, framed (length, type, data, CRC) as the format says. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0)
  return Buffer.concat([head, data, crc])
}

/** An `iTXt` chunk: keyword, compression flag and method, no language or translated keyword, then the text. */
export function iTxtChunk(keyword: string, text: Buffer, compressed: boolean): Buffer {
  const head = Buffer.from(`${keyword}\0${compressed ? '\x01' : '\0'}\0\0\0`, 'latin1')
  return pngChunk('iTXt', Buffer.concat([head, text]))
}

export const v2Card = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Seraphina',
    description: '{{char}} is a guardian of the forest who heals travellers.',
    personality: 'kind, protective',
    scenario: '{{user}} wakes up in her glade.',
    first_mes: '*{{char}} smiles.* You are awake at last.',
    mes_example: '<START>\n{{user}}: Who are you?\n{{char}}: A friend.',
    creator_notes: 'Made for testing.',
    system_prompt: 'Stay in character as {{char}}.',
    post_history_instructions: '',
    alternate_greetings: ['*The glade is quiet.* Rest now.'],
    tags: ['fantasy'],
    character_book: { entries: [{ keys: ['glade'], content: 'A hidden place.' }] },
    creator: 'someone',
    character_version: '1',
    extensions: {},
  },
}

/** A ChatGPT export's `mapping`: message id → the message, its parent and its children. */
export type Mapping = Record<string, { message: unknown; parent: string | null; children: string[] }>

/** A ChatGPT message of `role` saying `text`. */
export function chatgptMessage(role: string, text: string) {
  return { author: { role }, content: { content_type: 'text', parts: [text] }, recipient: 'all' }
}

/** conversations.json of these conversations. */
export function chatgptExport(conversations: Array<{ title: string; mapping: Mapping }>): string {
  return JSON.stringify(
    conversations.map((c, i) => ({ ...c, conversation_id: `conv-${i}`, create_time: 1_700_000_000 })),
  )
}

/**
 * A root, a user's "go" and `layers` layers of two answers, each answer listing both of the
 * next layer as its children while their own `parent` names the first: 2 + 2·layers messages,
 * 2^layers paths from the prompt down. With `words` false every message is empty (no node
 * can come of it).
 */
export function layeredMessages(layers: number, words = true): Mapping {
  const say = (role: string, text: string) => (words ? chatgptMessage(role, text) : null)
  const layer = (k: number) => [`l${k}a`, `l${k}b`]
  const mapping: Mapping = {
    root: { message: null, parent: null, children: ['u'] },
    u: { message: say('user', 'go'), parent: 'root', children: layer(1) },
  }
  for (let k = 1; k <= layers; k++) {
    const next = k < layers ? layer(k + 1) : []
    const parent = k === 1 ? 'u' : `l${k - 1}a`
    for (const id of layer(k)) mapping[id] = { message: say('assistant', id), parent, children: next }
  }
  return mapping
}
