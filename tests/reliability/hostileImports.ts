import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  ftruncateSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { zipSync, type Zippable } from 'fflate'
import type { Flow, Node } from '@shared/contract'
import { renderExport } from '../../main/interop/vizprompt'
import {
  IMPORT_TEXT_MAX,
  MAX_BOOK_ENTRIES,
  MAX_CARD_GREETINGS,
  MAX_CARD_INFLATED_BYTES,
  MAX_CHARX_ENTRIES,
  MAX_IMPORT_CONVERSATIONS,
  MAX_LOREBOOK_CHARS,
  MAX_NESTING,
} from '../../main/kernel/importLimits'
import {
  chatgptExport,
  chatgptMessage,
  iTxtChunk,
  layeredMessages,
  pngWith,
  v2Card,
  type Mapping,
} from '../support/foreignFiles'

// A corpus of hostile imports: each case writes one attack on an import into a folder of its
// own and says what the refusal must name — the file and, where there is one, the line.
// Every file type the app imports is here: VizPrompt folders (XML, YAML, TSV), memory chat
// logs (JSONL, LoCoMo JSON), both from a window (only the home's imports/ folder) and from
// the command line (any regular file), ChatGPT exports, character cards and lorebooks from a
// window (a lorebook's text as the window reads and sends it).
// The reliability suite runs them all and checks that nothing was let in and no database
// changed.

/** Text of a file outside every import; it must never show up in an error or a database. */
export const SECRET_CANARY = 'LOOMVERSE-CANARY-7f3a9c'

export type HostileTarget = 'vizprompt' | 'memory-window' | 'memory-cli' | 'chatgpt' | 'card' | 'lorebook'

/** Whether a case's path is named as a window names it: relative to the home's imports/ folder. */
export const namedInImports = (target: HostileTarget): boolean =>
  target === 'memory-window' || target === 'chatgpt' || target === 'card'

export interface HostilePlace {
  /** A fresh folder for this case, outside the data home. */
  root: string
  /** The data home's imports/ folder (it exists). */
  imports: string
  /** A file outside the import holding SECRET_CANARY, for links and paths to point at. */
  secret: string
}

export interface HostileInput {
  /** What to import: a VizPrompt folder, or the path memory_import is given. */
  path: string
  /** How the refusal names the file. */
  file: string
  /** The line it names, or null when the whole file is refused (a link, a FIFO, its size). */
  line: number | null
  /** Words the refusal must hold besides the file, where its start alone cannot tell the right refusal from another. */
  reason?: string
  /**
   * Set where the file is not refused but must bring nothing in (a ChatGPT export whose one
   * conversation is damaged): the import answers, reporting the conversation skipped for a
   * reason containing this, and every database stays as it was.
   */
  skipped?: string
}

export interface HostileCase {
  name: string
  target: HostileTarget
  /** False where the platform cannot make the case (FIFOs and links on Windows). */
  available: boolean
  build(place: HostilePlace): HostileInput
}

const posix = process.platform !== 'win32'

/** Writes the secret file a case may point at; call once per case folder. */
export function hostilePlace(root: string, imports: string): HostilePlace {
  mkdirSync(root, { recursive: true })
  mkdirSync(imports, { recursive: true })
  const secret = join(root, 'secret.txt')
  writeFileSync(secret, `root:x:0:0:${SECRET_CANARY}\n`)
  return { root, imports, secret }
}

// ---- a small valid VizPrompt export to spoil

const FLOW_ID = '6f1c2a3e-0b7d-4c55-9a1e-2d3f4a5b6c70'
const NODE_IDS = [
  '0a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c60',
  '1a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c61',
  '2a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c62',
]

function node(i: number, prompt = `prompt ${i}`): Node {
  return {
    id: NODE_IDS[i]!,
    timestamp: `2025-05-09T09:00:0${i}.000000+09:00`,
    prompt,
    response: `response ${i}`,
    status: 'complete',
    error: null,
    metadata: {
      model: 'openai:gpt-4o-mini',
      stats: {},
      summary: { text: `summary ${i}`, updated: false, last_built: '2025-05-09T09:10:00.000000+09:00' },
      tags: ['hostile'],
    },
  }
}

const flow: Flow = {
  id: FLOW_ID,
  name: 'hostile',
  description: 'a flow to spoil',
  created: '2025-05-09T09:00:00.000000+09:00',
  updated: '2025-05-09T09:00:03.000000+09:00',
  persona_id: null,
  system_prompt: '',
  token_budget: null,
  memory_private: false,
  nodes: NODE_IDS.map((id, i) => ({ index: i + 1, id, position: null, pinned: false })),
  connections: [
    { from: NODE_IDS[0]!, to: NODE_IDS[1]! },
    { from: NODE_IDS[1]!, to: NODE_IDS[2]! },
  ],
}

/** A valid export of one flow of three nodes, with `nodes[0]` as given. */
function exportFolder(root: string, first: Node = node(0)): string {
  const dir = join(root, 'export')
  for (const file of renderExport([flow], [first, node(1), node(2)])) {
    mkdirSync(join(dir, file.path, '..'), { recursive: true })
    writeFileSync(join(dir, file.path), file.content)
  }
  return dir
}

/** The 1-based line of the first occurrence of `needle` in a file of the export. */
function lineOf(dir: string, file: string, needle: string | Buffer): number {
  const bytes = readFileSync(join(dir, file))
  const at = bytes.indexOf(needle)
  if (at === -1) throw new Error(`${file} has no ${String(needle)}`)
  return bytes.subarray(0, at).filter((b) => b === 10).length + 1
}

function replaceIn(dir: string, file: string, from: string, to: string | Buffer): void {
  const text = readFileSync(join(dir, file), 'utf8')
  if (!text.includes(from)) throw new Error(`${file} has no ${from}`)
  const [before, after] = [text.slice(0, text.indexOf(from)), text.slice(text.indexOf(from) + from.length)]
  writeFileSync(join(dir, file), Buffer.concat([Buffer.from(before), Buffer.from(to), Buffer.from(after)]))
}

/** Moves `entry` of the export out of it and leaves a link to where it went. */
function linkOut(root: string, dir: string, entry: string): void {
  const away = join(root, 'elsewhere', entry.replaceAll('/', '_'))
  mkdirSync(join(away, '..'), { recursive: true })
  renameSync(join(dir, entry), away)
  symlinkSync(away, join(dir, entry))
}

/** A sparse file of `bytes`: its size says it is too big without a byte written. */
function sparse(path: string, bytes: number): void {
  const fd = openSync(path, 'w')
  ftruncateSync(fd, bytes)
  closeSync(fd)
}

function fifo(path: string): void {
  execFileSync('mkfifo', [path])
}

const viz = (
  name: string,
  build: (p: HostilePlace, dir: string) => Omit<HostileInput, 'path'>,
  available = true,
): HostileCase => ({
  name,
  target: 'vizprompt',
  available,
  build(place) {
    const dir = exportFolder(place.root)
    return { path: dir, ...build(place, dir) }
  },
})

const NODE0 = 'nodes/00/00.xml'
const FLOW0 = 'flows/00/00.yaml'

export const vizpromptCases: HostileCase[] = [
  viz(
    'nodes/ is a link out of the export',
    (p, dir) => (linkOut(p.root, dir, 'nodes'), { file: 'nodes', line: null }),
    posix,
  ),
  viz(
    'metadata/ is a link out of the export',
    (p, dir) => (linkOut(p.root, dir, 'metadata'), { file: 'metadata', line: null }),
    posix,
  ),
  viz(
    'flows/ is a link out of the export',
    (p, dir) => (linkOut(p.root, dir, 'flows'), { file: 'flows', line: null }),
    posix,
  ),
  viz(
    'a folder of nodes/ is a link',
    (p, dir) => (linkOut(p.root, dir, 'nodes/00'), { file: 'nodes/00', line: null }),
    posix,
  ),
  viz(
    'metadata/tags.yaml links to a secret file',
    (p, dir) => {
      const file = 'metadata/tags.yaml'
      writeFileSync(join(dir, file), '')
      execFileSync('rm', [join(dir, file)])
      symlinkSync(p.secret, join(dir, file))
      return { file, line: null }
    },
    posix,
  ),
  viz(
    'a node file links to a secret file',
    (p, dir) => {
      execFileSync('rm', [join(dir, NODE0)])
      symlinkSync(p.secret, join(dir, NODE0))
      return { file: NODE0, line: null }
    },
    posix,
  ),
  viz(
    'config.yaml links to a secret file',
    (p, dir) => {
      execFileSync('rm', [join(dir, 'config.yaml')])
      symlinkSync(p.secret, join(dir, 'config.yaml'))
      return { file: 'config.yaml', line: null }
    },
    posix,
  ),
  viz(
    'a node file of 40 MiB (the limit is 32)',
    (_, dir) => (sparse(join(dir, NODE0), 40 * 1024 * 1024), { file: NODE0, line: null }),
  ),
  viz(
    'a flow file of 65 MiB (the limit is 64)',
    (_, dir) => (sparse(join(dir, FLOW0), 65 * 1024 * 1024), { file: FLOW0, line: null }),
  ),
  {
    name: 'a prompt of 2,000,001 characters (create_node takes 2,000,000)',
    target: 'vizprompt',
    available: true,
    build(place) {
      const dir = exportFolder(place.root, node(0, 'x'.repeat(2_000_001)))
      return { path: dir, file: NODE0, line: lineOf(dir, NODE0, '<prompt>') }
    },
  },
  viz('invalid UTF-8 in a prompt', (_, dir) => {
    replaceIn(dir, NODE0, 'prompt 0', Buffer.from([0x70, 0xff, 0xfe, 0x30]))
    return { file: NODE0, line: lineOf(dir, NODE0, Buffer.from([0xff])) }
  }),
  viz('invalid UTF-8 in a flow file', (_, dir) => {
    replaceIn(dir, FLOW0, 'name: hostile', Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xc3, 0x28]))
    return { file: FLOW0, line: lineOf(dir, FLOW0, Buffer.from([0xc3, 0x28])) }
  }),
  viz('a NUL character in a response', (_, dir) => {
    replaceIn(dir, NODE0, 'response 0', 'resp\0onse')
    return { file: NODE0, line: lineOf(dir, NODE0, '\0') }
  }),
  viz('a NUL character reference in a summary', (_, dir) => {
    replaceIn(dir, NODE0, 'summary 0', 'sum&#0;mary')
    return { file: NODE0, line: lineOf(dir, NODE0, '&#0;') }
  }),
  viz('XML nested 100,000 deep', (_, dir) => {
    replaceIn(dir, NODE0, '<tag>hostile</tag>', `${'<tag>'.repeat(100_000)}x${'</tag>'.repeat(100_000)}`)
    return { file: NODE0, line: lineOf(dir, NODE0, '<tags>') }
  }),
  viz('YAML nested 100,000 deep', (_, dir) => {
    replaceIn(dir, FLOW0, 'description: a flow to spoil', `description: ${'['.repeat(100_000)}${']'.repeat(100_000)}`)
    return { file: FLOW0, line: lineOf(dir, FLOW0, 'description:') }
  }),
  viz('a DOCTYPE with entities (billion laughs)', (_, dir) => {
    replaceIn(dir, NODE0, '<node', '<!DOCTYPE node [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>\n<node')
    return { file: NODE0, line: 2 }
  }),
  viz('an external entity pointing at a secret file', (p, dir) => {
    replaceIn(dir, NODE0, '<node', `<!DOCTYPE node [<!ENTITY s SYSTEM "file://${p.secret}">]>\n<node`)
    return { file: NODE0, line: 2 }
  }),
  viz('YAML aliases (billion laughs)', (_, dir) => {
    replaceIn(dir, FLOW0, 'description: a flow to spoil', 'description: &a [x, x, x, x]\npersona_id: [*a, *a, *a, *a]')
    return { file: FLOW0, line: lineOf(dir, FLOW0, 'persona_id:') }
  }),
  viz('node_map.tsv points out of nodes/', (_, dir) => {
    const map = 'metadata/node_map.tsv'
    writeFileSync(join(dir, map), `${readFileSync(join(dir, map), 'utf8')}../../secret.xml\tx\ty\n`)
    return { file: map, line: lineOf(dir, map, '../../') }
  }),
  viz(
    'a node file is a FIFO',
    (_, dir) => (execFileSync('rm', [join(dir, NODE0)]), fifo(join(dir, NODE0)), { file: NODE0, line: null }),
    posix,
  ),
]

// ---- memory chat logs

const line = (id: string, text = 'hello', time: unknown = '2024-06-01T09:00:00Z') =>
  JSON.stringify({ id, speaker: 'Aoi', text, time })

const fromWindow = (name: string, build: (p: HostilePlace) => HostileInput, available = true): HostileCase => ({
  name,
  target: 'memory-window',
  available,
  build,
})

export const memoryCases: HostileCase[] = [
  fromWindow('an absolute path outside imports/', (p) => ({ path: p.secret, file: p.secret, line: null })),
  fromWindow('a relative path climbing out of imports/', () => ({
    path: '../loomverse.db',
    file: '../loomverse.db',
    line: null,
  })),
  fromWindow(
    'a file in imports/ that links to a secret file',
    (p) => {
      symlinkSync(p.secret, join(p.imports, 'link.jsonl'))
      return { path: 'link.jsonl', file: 'link.jsonl', line: null }
    },
    posix,
  ),
  fromWindow(
    'a folder in imports/ that links out of it',
    (p) => {
      mkdirSync(join(p.root, 'outside'))
      writeFileSync(join(p.root, 'outside', 'chat.jsonl'), line('x'))
      symlinkSync(join(p.root, 'outside'), join(p.imports, 'sub'))
      return { path: 'sub/chat.jsonl', file: 'sub/chat.jsonl', line: null }
    },
    posix,
  ),
  fromWindow(
    'a FIFO in imports/',
    (p) => (fifo(join(p.imports, 'pipe.jsonl')), { path: 'pipe.jsonl', file: 'pipe.jsonl', line: null }),
    posix,
  ),
  fromWindow('a chat log of 300 MiB (the limit is 256)', (p) => {
    sparse(join(p.imports, 'huge.jsonl'), 300 * 1024 * 1024)
    return { path: 'huge.jsonl', file: 'huge.jsonl', line: null }
  }),
  fromWindow('invalid UTF-8 on line 2 of a chat log', (p) => {
    writeFileSync(
      join(p.imports, 'bad.jsonl'),
      Buffer.concat([Buffer.from(`${line('a')}\n{"id":"b","text":"`), Buffer.from([0xff]), Buffer.from('"}\n')]),
    )
    return { path: 'bad.jsonl', file: 'bad.jsonl', line: 2 }
  }),
  fromWindow('a NUL character on line 3 of a transcript', (p) => {
    writeFileSync(join(p.imports, 'chat.txt'), 'Aoi: hi\nMika: hello\nAoi: sec\0ret\n')
    return { path: 'chat.txt', file: 'chat.txt', line: 3 }
  }),
  // V8 (Node 20) gives no position for an unexpected token, so no line: the whole file is refused.
  fromWindow('LoCoMo JSON that is not JSON', (p) => {
    writeFileSync(join(p.imports, 'conv.json'), `{\n  "sample_id": "x",\n  "conversation": ${SECRET_CANARY}\n}\n`)
    return { path: 'conv.json', file: 'conv.json', line: null }
  }),
  fromWindow('LoCoMo JSON cut short', (p) => {
    writeFileSync(join(p.imports, 'cut.json'), `{\n  "sample_id": "x",\n  "conversation": {\n    "session_1": [\n`)
    return { path: 'cut.json', file: 'cut.json', line: null }
  }),
  {
    name: 'a FIFO named on the command line',
    target: 'memory-cli',
    available: posix,
    build(p) {
      const path = join(p.root, 'pipe.jsonl')
      fifo(path)
      return { path, file: path, line: null }
    },
  },
  {
    name: 'a device named on the command line',
    target: 'memory-cli',
    available: existsSync('/dev/zero'),
    build: () => ({ path: '/dev/zero', file: '/dev/zero', line: null }),
  },
]

// ---- ChatGPT exports and character cards, as a window imports them

const inImports =
  (target: 'chatgpt' | 'card') =>
  (
    name: string,
    file: string,
    content: () => string | Buffer,
    expect: Partial<Pick<HostileInput, 'line' | 'reason' | 'skipped'>> = {},
  ): HostileCase => ({
    name,
    target,
    available: true,
    build(p) {
      writeFileSync(join(p.imports, file), content())
      return { path: file, file, line: null, ...expect }
    },
  })
const chatgpt = inImports('chatgpt')
const card = inImports('card')
const oneConversation = (mapping: Mapping) => chatgptExport([{ title: 'hostile', mapping }])

export const chatgptCases: HostileCase[] = [
  chatgpt(
    'a ChatGPT message that is its own child',
    'self.json',
    () => oneConversation({ a: { message: null, parent: null, children: ['a'] } }),
    { skipped: 'no messages' },
  ),
  chatgpt(
    'ChatGPT messages A → B → A',
    'loop.json',
    () =>
      oneConversation({
        root: { message: null, parent: null, children: ['a'] },
        a: { message: null, parent: 'root', children: ['b'] },
        b: { message: null, parent: 'a', children: ['a'] },
      }),
    { skipped: 'no messages' },
  ),
  chatgpt(
    'ChatGPT messages whose parents form a loop',
    'parents.json',
    () =>
      oneConversation({
        root: { message: null, parent: null, children: ['a'] },
        a: { message: chatgptMessage('user', 'a'), parent: 'b', children: ['b'] },
        b: { message: chatgptMessage('user', 'b'), parent: 'a', children: ['a'] },
      }),
    { skipped: '2 caught in a loop of parents' },
  ),
  // Issue 37's file had 46 messages (2^22 paths) with words; empty, 2^22 paths would still
  // end given a gigabyte, 2^30 cannot.
  chatgpt('62 ChatGPT messages with 2^30 paths', 'paths.json', () => oneConversation(layeredMessages(30, false)), {
    skipped: 'no messages',
  }),
  chatgpt(
    'a ChatGPT prompt of 2,000,001 characters',
    'long.json',
    () =>
      oneConversation({
        root: { message: null, parent: null, children: ['u'] },
        u: { message: chatgptMessage('user', 'x'.repeat(IMPORT_TEXT_MAX + 1)), parent: 'root', children: [] },
      }),
    { skipped: 'over the limit' },
  ),
  chatgpt(`a ChatGPT export of ${MAX_IMPORT_CONVERSATIONS + 1} conversations`, 'many.json', () =>
    chatgptExport(Array.from({ length: MAX_IMPORT_CONVERSATIONS + 1 }, () => ({ title: 'x', mapping: {} }))),
  ),
]

const cardText = (c: unknown) => Buffer.from(Buffer.from(JSON.stringify(c)).toString('base64'))

export const cardCases: HostileCase[] = [
  // Zeros deflate a thousandfold: some 50 KB on disk.
  card(
    'a card chunk inflating past 50 MiB',
    'bomb.png',
    () => pngWith({}, [iTxtChunk('chara', deflateSync(Buffer.alloc(MAX_CARD_INFLATED_BYTES + 1)), true)]),
    { reason: 'inflates to more than' },
  ),
  card('a card chunk of damaged compressed data', 'damaged.png', () =>
    pngWith({}, [iTxtChunk('chara', Buffer.from(SECRET_CANARY), true)]),
  ),
  // A v3 card rides in ccv3 beside its v2 chara: the chunks inflate against one budget.
  card(
    'a card whose ccv3 chunk inflates past what its chara chunk left',
    'ccv3.png',
    () =>
      pngWith({}, [
        iTxtChunk('chara', deflateSync(Buffer.alloc(MAX_CARD_INFLATED_BYTES / 2)), true),
        iTxtChunk('ccv3', deflateSync(Buffer.alloc(MAX_CARD_INFLATED_BYTES / 2 + 1)), true),
      ]),
    { reason: 'inflates to more than' },
  ),
  card(
    'a card JSON nested 100,000 deep',
    'deep-card.json',
    () =>
      JSON.stringify({ ...v2Card, data: { ...v2Card.data, extensions: {} } }).replace(
        '"extensions":{}',
        `"extensions":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      ),
    { line: 1, reason: 'deep' },
  ),
  card(`a card of ${MAX_CARD_GREETINGS + 1} greetings`, 'greetings.png', () =>
    pngWith({}, [
      iTxtChunk(
        'chara',
        cardText({
          ...v2Card,
          data: { ...v2Card.data, alternate_greetings: Array.from({ length: MAX_CARD_GREETINGS }, () => 'hi') },
        }),
        false,
      ),
    ]),
  ),
]

// ---- CHARX cards (a zip holding card.json), as a window imports them

const v3Card = { spec: 'chara_card_v3', spec_version: '3.0', data: { ...v2Card.data, group_only_greetings: [] } }
const charx = (files: Zippable) => Buffer.from(zipSync(files))
const cardJson = (c: unknown = v3Card) => Buffer.from(JSON.stringify(c))

/**
 * A zip whose card.json inflates to `size` zeros but whose headers say it holds 100 bytes: the
 * limit must hold on what comes out, not on what the archive claims.
 */
function lyingCharx(size: number): Buffer {
  const zip = charx({ 'card.json': [Buffer.alloc(size), { level: 9 }] })
  const local = zip.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]))
  const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
  zip.writeUInt32LE(100, local + 22)
  zip.writeUInt32LE(100, central + 24)
  return zip
}

export const charxCases: HostileCase[] = [
  // Zeros deflate a thousandfold: some 50 KB on disk.
  card(
    'a CHARX card.json inflating past 50 MiB',
    'bomb.charx',
    () => charx({ 'card.json': [Buffer.alloc(MAX_CARD_INFLATED_BYTES + 1), { level: 9 }] }),
    { reason: 'inflates past' },
  ),
  card(
    'a CHARX card.json whose headers say 100 bytes and that inflates past 50 MiB',
    'liar.charx',
    () => lyingCharx(MAX_CARD_INFLATED_BYTES + 1),
    { reason: 'inflates past' },
  ),
  card(
    `a CHARX archive of ${MAX_CHARX_ENTRIES + 1} files`,
    'many.charx',
    () =>
      charx({
        'card.json': cardJson(),
        ...Object.fromEntries(
          Array.from({ length: MAX_CHARX_ENTRIES }, (_, i) => [`assets/other/${i}.txt`, Buffer.from('x')]),
        ),
      }),
    { reason: `more than ${MAX_CHARX_ENTRIES} files` },
  ),
  card(
    'a CHARX entry named ../outside.png',
    'climb.charx',
    () => charx({ '../outside.png': Buffer.from(SECRET_CANARY), 'card.json': cardJson() }),
    { reason: 'points outside the archive' },
  ),
  card(
    'a CHARX entry with an absolute name',
    'absolute.charx',
    () => charx({ 'card.json': cardJson(), '/etc/outside.png': Buffer.from('x') }),
    { reason: 'not a relative path' },
  ),
  card(
    'a CHARX card.json nested 100,000 deep',
    'deep.charx',
    () =>
      charx({
        'card.json': Buffer.from(
          JSON.stringify({ ...v3Card, data: { ...v3Card.data, extensions: {} } }).replace(
            '"extensions":{}',
            `"extensions":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
          ),
        ),
      }),
    { reason: `more than ${MAX_NESTING} deep` },
  ),
  card('a file named .charx that is not a zip', 'renamed.charx', () => cardJson(), { reason: 'not a zip archive' }),
  card(
    'a zip named .charx without card.json',
    'empty.charx',
    () => charx({ 'character.json': cardJson(), 'assets/icon/images/main.png': pngWith({}) }),
    { reason: 'without card.json' },
  ),
  card('a CHARX archive cut short inside card.json', 'cut.charx', () => {
    const whole = charx({
      'card.json': [cardJson({ ...v3Card, data: { ...v3Card.data, description: 'x'.repeat(100_000) } }), { level: 0 }],
    })
    return whole.subarray(0, 5_000)
  }),
]

// ---- lorebooks: SillyTavern World Info and NovelAI .lorebook, as a window sends their text

/** A case whose file is sent as a window sends a lorebook: its text, named by the file's name. */
const lorebook = (
  name: string,
  file: string,
  content: () => string,
  expect: Pick<HostileInput, 'line' | 'reason'> = { line: null },
): HostileCase => ({
  name,
  target: 'lorebook',
  available: true,
  build(p) {
    const path = join(p.imports, file)
    writeFileSync(path, content())
    return { path, file, ...expect }
  },
})

const worldInfo = (entries: unknown[]) =>
  JSON.stringify({ entries: Object.fromEntries(entries.map((e, uid) => [String(uid), { uid, ...(e as object) }])) })
const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`

export const lorebookCases: HostileCase[] = [
  lorebook('a World Info entry of 100,001 characters', 'long.json', () =>
    worldInfo([{ key: ['x'], content: 'x'.repeat(100_001) }]),
  ),
  lorebook(`a World Info of ${MAX_BOOK_ENTRIES + 1} entries`, 'many.json', () =>
    worldInfo(Array.from({ length: MAX_BOOK_ENTRIES + 1 }, () => ({ key: ['x'] }))),
  ),
  lorebook(
    'a World Info nested 100,000 deep on line 3',
    'deep.json',
    () => `{\n  "entries": {},\n  "extensions": ${deep(100_000)}\n}`,
    { line: 3, reason: `more than ${MAX_NESTING} deep` },
  ),
  lorebook('a World Info regex key of 1,001 characters', 'key.json', () =>
    worldInfo([{ key: [`/${'a'.repeat(999)}/`] }]),
  ),
  lorebook(
    'a World Info key that is a broken regular expression',
    'broken.json',
    () => worldInfo([{ key: ['/(unclosed/'] }]),
    { line: null, reason: 'not a regular expression' },
  ),
  lorebook(
    `a lorebook over ${MAX_LOREBOOK_CHARS} characters`,
    'huge.json',
    () => worldInfo([{ key: ['x'], content: 'x'.repeat(MAX_LOREBOOK_CHARS) }]),
    { line: null, reason: 'over the limit' },
  ),
  lorebook('a World Info that is not JSON, around a secret', 'secret.json', () => `{"entries": ${SECRET_CANARY}}`),
  lorebook(`a NovelAI .lorebook of ${MAX_BOOK_ENTRIES + 1} entries`, 'many.lorebook', () =>
    JSON.stringify({
      lorebookVersion: 5,
      entries: Array.from({ length: MAX_BOOK_ENTRIES + 1 }, () => ({ text: 'x', keys: ['x'] })),
    }),
  ),
  lorebook(
    "a NovelAI .lorebook nested 100,000 deep in an entry's settings",
    'deep.lorebook',
    () => `{"lorebookVersion": 5, "entries": [{"text": "x", "keys": ["x"], "contextConfig": ${deep(100_000)}}]}`,
    { line: 1, reason: `more than ${MAX_NESTING} deep` },
  ),
  lorebook('a NovelAI .lorebook whose key is not text', 'keys.lorebook', () =>
    JSON.stringify({ lorebookVersion: 5, entries: [{ text: 'x', keys: [{ toString: 'x' }] }] }),
  ),
]

export const hostileCases: HostileCase[] = [
  ...vizpromptCases,
  ...memoryCases,
  ...chatgptCases,
  ...cardCases,
  ...charxCases,
  ...lorebookCases,
]
