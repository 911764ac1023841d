import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { ImportFileError } from './importFileError'
import type { Language } from './language'

// What a file to import is, told by what it holds rather than its name: a SillyTavern card
// saved as `seraphina.json` is a card, not a chat log. Only the file's start is read (a
// ChatGPT export can be hundreds of MB); a file that fits in it is parsed whole.

export type ImportKind = 'chatgpt' | 'card' | 'vizprompt' | 'chat_log' | 'unknown'

/** How much of a file is read to guess: the first conversation of an export, a card's first fields. */
export const GUESS_BYTES = 256 * 1024

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04])
const O_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

/** The start of a regular file (never through a link), or null when it cannot be read. */
export function readHead(path: string, bytes = GUESS_BYTES): { head: Buffer; whole: boolean } | null {
  let fd: number
  try {
    fd = openSync(path, O_FLAGS)
  } catch {
    return null
  }
  try {
    const info = fstatSync(fd)
    if (!info.isFile()) return null
    const head = Buffer.alloc(Math.min(bytes, info.size))
    let read = 0
    while (read < head.length) {
      const n = readSync(fd, head, read, head.length - read, null)
      if (n === 0) break
      read += n
    }
    return { head: head.subarray(0, read), whole: read >= info.size }
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}

/** What a file is, from its start (and its name when the content says nothing). */
export function guessImport(name: string, head: Buffer, whole: boolean): ImportKind {
  if (head.subarray(0, 8).equals(PNG_SIGNATURE)) return 'card'
  if (head.subarray(0, 4).equals(ZIP_SIGNATURE)) {
    if (zipHolds(head, 'card.json')) return 'card' // CHARX: a Character Card V3 zip
    return /conversations|chatgpt/i.test(name) ? 'chatgpt' : 'unknown'
  }
  const text = head.toString('utf8').replace(/^\uFEFF/, '')
  const start = text.trimStart()
  if (start.startsWith('{') || start.startsWith('[')) {
    const parsed = whole ? parseOrNull(text) : undefined
    const kind = parsed === undefined ? guessJsonText(start) : guessJsonValue(parsed, start)
    if (kind !== 'unknown') return kind
  }
  return byName(name)
}

/** Reads a file's start and guesses; a file that cannot be read is guessed by its name. */
export function guessImportFile(path: string, name: string): ImportKind {
  const got = readHead(path)
  return got ? guessImport(name, got.head, got.whole) : byName(name)
}

/**
 * Whether one of the zip's local file headers in `head` names `entry`. Headers are found by their
 * signature rather than walked by their sizes: a writer that streams puts the sizes after the data.
 */
function zipHolds(head: Buffer, entry: string): boolean {
  const wanted = Buffer.from(entry)
  for (let at = head.indexOf(ZIP_SIGNATURE); at >= 0 && at + 30 <= head.length;) {
    const nameLength = head.readUInt16LE(at + 26)
    const name = head.subarray(at + 30, at + 30 + nameLength)
    if (name.equals(wanted)) return true
    at = head.indexOf(ZIP_SIGNATURE, at + 30 + nameLength)
  }
  return false
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined // not one JSON value: JSON Lines perhaps, told by its first line
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const CARD_FIELDS = ['description', 'personality', 'scenario', 'first_mes', 'mes_example']

function guessJsonValue(value: unknown, start: string): ImportKind {
  if (isObject(value)) {
    if (typeof value.spec === 'string' && /^chara_card_v\d$/.test(value.spec) && isObject(value.data)) return 'card'
    // v1: the fields at the top level.
    if (typeof value.name === 'string' && CARD_FIELDS.some((f) => typeof value[f] === 'string')) return 'card'
    if (isObject(value.mapping)) return 'chatgpt' // one conversation, not the export's list
    if (isLocomo(value)) return 'chat_log'
    if (isLogLine(value)) return 'chat_log'
    return 'unknown'
  }
  if (Array.isArray(value)) {
    const first: unknown = value[0]
    if (!isObject(first)) return 'unknown'
    if (isObject(first.mapping)) return 'chatgpt'
    if (isLocomo(first)) return 'chat_log'
    return 'unknown'
  }
  return guessJsonText(start)
}

function isLocomo(v: Record<string, unknown>): boolean {
  return isObject(v.conversation) && Object.keys(v.conversation).some((k) => /^session_\d+$/.test(k))
}

function isLogLine(v: Record<string, unknown>): boolean {
  return typeof v.speaker === 'string' && typeof v.text === 'string'
}

/** The start of a file too big to parse here: its keys tell. A key inside a string has its quotes escaped, so it never matches. */
function guessJsonText(start: string): ImportKind {
  if (/"spec"\s*:\s*"chara_card_v\d"/.test(start)) return 'card'
  if (start.startsWith('[') && /"mapping"\s*:\s*\{/.test(start)) return 'chatgpt'
  if (/"conversation"\s*:\s*\{/.test(start) && /"session_\d+"\s*:/.test(start)) return 'chat_log'
  if (/"qa"\s*:\s*\[/.test(start) && /"evidence"\s*:/.test(start)) return 'chat_log' // LoCoMo's questions come first
  const firstLine = start.slice(0, start.indexOf('\n') === -1 ? undefined : start.indexOf('\n'))
  const line = parseOrNull(firstLine)
  if (isObject(line) && isLogLine(line)) return 'chat_log'
  if (start.startsWith('{') && /"first_mes"\s*:/.test(start) && /"name"\s*:/.test(start)) return 'card'
  return 'unknown'
}

function byName(name: string): ImportKind {
  const lower = name.toLowerCase()
  if (lower.endsWith('.png') || lower.endsWith('.charx')) return 'card'
  if (/conversations.*\.json$/.test(lower)) return 'chatgpt'
  if (/\.(jsonl|ndjson|txt)$/.test(lower)) return 'chat_log'
  return 'unknown'
}

/** A kind the way the Import dialog names it, and what importing it does, for messages. */
const KINDS: Record<Language, Record<Exclude<ImportKind, 'unknown'>, { is: string; choose: string }>> = {
  en: {
    card: {
      is: 'a SillyTavern character card',
      choose: 'Choose "Character card" to import it as a persona.',
    },
    chatgpt: {
      is: 'a ChatGPT export',
      choose: 'Choose "ChatGPT export" to import its conversations.',
    },
    chat_log: {
      is: 'a chat log',
      choose: 'Choose "Chat log (memory)" to import it into a persona’s memory.',
    },
    vizprompt: {
      is: 'a VizPrompt folder',
      choose: 'Choose "VizPrompt folder" to import it.',
    },
  },
  ja: {
    card: {
      is: 'SillyTavern のキャラクターカード',
      choose: '「キャラクターカード」を選ぶとペルソナとして取り込めます。',
    },
    chatgpt: {
      is: 'ChatGPT のエクスポート',
      choose: '「ChatGPT のエクスポート」を選ぶと会話として取り込めます。',
    },
    chat_log: {
      is: 'チャットログ',
      choose: '「チャットログ（記憶）」を選ぶとペルソナの記憶に取り込めます。',
    },
    vizprompt: {
      is: 'VizPrompt フォルダ',
      choose: '「VizPrompt フォルダ」を選ぶと取り込めます。',
    },
  },
}

/**
 * An import's refusal of a file, led in the user's language: in Japanese the reason (written for
 * logs and scripts, in English) follows a sentence saying the file could not be read as the kind
 * chosen. Anything but a refused file passes through unchanged.
 */
export async function inUserWords<T>(
  wanted: Exclude<ImportKind, 'unknown'>,
  language: Language,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run()
  } catch (e) {
    if (language !== 'ja' || !(e instanceof ImportFileError) || e.code !== 'bad_file') throw e
    throw new ImportFileError(e.file, e.line, `${KINDS.ja[wanted].is}として読めませんでした（${e.reason}）`, e.code)
  }
}

/**
 * Refuses a file whose content says it is another kind than the import asked for, in the
 * user's words: what it looks like and which choice imports it. Nothing is read further and
 * nothing changes. A file the guess cannot place goes on to the import, which says what is wrong.
 */
export function refuseOtherKind(
  path: string,
  name: string,
  wanted: Exclude<ImportKind, 'unknown'>,
  language: Language,
): void {
  const got = readHead(path)
  if (!got) return // the import itself says why it cannot read the file
  const kind = guessImport(name, got.head, got.whole)
  if (kind === 'unknown' || kind === wanted) return
  const words = KINDS[language]
  const reason =
    language === 'ja'
      ? `このファイルは${words[kind].is}のようです（${words[wanted].is}ではありません）。${words[kind].choose}`
      : `This file looks like ${words[kind].is}, not ${words[wanted].is}. ${words[kind].choose}`
  throw new ImportFileError(name, null, reason)
}
