import { z } from 'zod'
import { MemoryUnitText } from '@shared/contract'
import { ImportFileError, lineAtOffset } from '../../kernel/importFileError'
import { TIME_FORMS, readTime } from '../store/importTime'

// The chat logs memory imports, each read into messages: JSONL (`{id, speaker, text, time}`
// per line), a LoCoMo-format JSON file (sessions with a date_time, turns with speaker,
// dia_id and text) and a plain transcript (`speaker: text` per line). What cannot be read is
// reported by line and why — never with the line's text, which may be anything.

export interface ImportMessage {
  /** Kept as the episode's external reference: importing the same file again adds nothing. */
  id: string
  speaker: string
  text: string
  /** Epoch seconds. */
  at: number
}

/** One message of a file, or why one could not be read; `line` is 1-based, null when unknown. */
export type SourceRow = { line: number | null; message: ImportMessage } | { line: number | null; problem: string }

export type ImportFormat = 'jsonl' | 'locomo' | 'transcript'

const Speaker = z.string().trim().min(1).max(200)
const MessageId = z.string().min(1).max(200)

/**
 * By extension: `.jsonl`/`.ndjson` JSONL, `.json` LoCoMo JSON; otherwise JSONL when the first
 * line that is not blank starts with `{`, else a transcript.
 */
export function formatOf(name: string, firstLine: string): ImportFormat {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase()
  if (extension === 'jsonl' || extension === 'ndjson') return 'jsonl'
  if (extension === 'json') return 'locomo'
  return firstLine.trimStart().startsWith('{') ? 'jsonl' : 'transcript'
}

// ---- JSONL

const JsonlLine = z.object({
  id: z.union([MessageId, z.number()]).transform(String),
  speaker: Speaker,
  text: MemoryUnitText,
  time: z.union([z.string().max(200), z.number()]),
})

/** One line of a JSONL file; null for a blank one. */
export function jsonlRow(text: string, line: number): SourceRow | null {
  if (!text.trim()) return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // V8's message quotes the text: say only what was wrong.
    return { line, problem: 'not valid JSON' }
  }
  const parsed = JsonlLine.safeParse(value)
  if (!parsed.success) return { line, problem: issue(parsed.error) }
  const { id, speaker, text: said, time } = parsed.data
  const at = readTime(time)
  if (at === null) return { line, problem: `time: cannot be read; use ${TIME_FORMS}` }
  return { line, message: { id, speaker, text: said, at } }
}

// ---- plain transcripts

/** `[time] speaker: text`, the time optional; the speaker has no brackets or colon in it. */
const TRANSCRIPT_LINE = /^(?:\[([^\]]{1,200})\]\s*)?([^:[\]]{1,200}):[ \t]*(.*)$/
/** A line that is only a time, in brackets: the time of the lines after it. */
const TIME_LINE = /^\[([^\]]{1,200})\]$/

/**
 * `speaker: text` per line. A line `[time]` on its own, or a `[time]` before the speaker,
 * sets the time of that line and the ones after it; before any, lines take `now` (the
 * time of the import). Ids are the file's name and the line: importing it again adds nothing.
 */
export class TranscriptReader {
  private at: number

  constructor(
    private readonly name: string,
    now: number,
  ) {
    this.at = now
  }

  row(text: string, line: number): SourceRow | null {
    const trimmed = text.trim()
    if (!trimmed) return null
    const timeOnly = TIME_LINE.exec(trimmed)
    if (timeOnly) return this.setTime(timeOnly[1]!, line) ?? null
    const m = TRANSCRIPT_LINE.exec(trimmed)
    const speaker = Speaker.safeParse(m?.[2])
    if (!m || !speaker.success || !m[3]) return { line, problem: 'expected "speaker: text"' }
    if (m[1] !== undefined) {
      const problem = this.setTime(m[1], line)
      if (problem) return problem
    }
    const said = MemoryUnitText.safeParse(m[3])
    if (!said.success) return { line, problem: issue(said.error, 'text') }
    return { line, message: { id: `${this.name}#L${line}`, speaker: speaker.data, text: said.data, at: this.at } }
  }

  private setTime(text: string, line: number): SourceRow | undefined {
    const at = readTime(text)
    if (at === null) return { line, problem: `the time in brackets cannot be read; use ${TIME_FORMS}` }
    this.at = at
    return undefined
  }
}

// ---- LoCoMo JSON

/** Turns of one session are this far apart, in seconds, so they keep their order in time. */
const TURN_SPACING = 30

const Turn = z.object({
  speaker: Speaker,
  dia_id: MessageId,
  text: MemoryUnitText,
  blip_caption: z.string().max(10_000).optional(),
})

const Sample = z.object({
  sample_id: z.union([z.string(), z.number()]).transform(String).optional(),
  conversation: z.record(z.string(), z.unknown()),
})

/**
 * Every turn of a LoCoMo file (one sample, or an array of them) at its session's date and
 * time. A turn's `dia_id` is its id; with several samples in one file, `sample_id:dia_id`,
 * since every sample numbers its turns from D1:1. A shared photo's caption is kept with
 * the text. A file that is not LoCoMo JSON at all is refused; a turn or session that
 * cannot be read is reported by the line it is on.
 */
export function locomoRows(json: string, name: string): SourceRow[] {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message)
    throw new ImportFileError(name, at ? lineAtOffset(json, Number(at[1])) : null, 'is not valid JSON')
  }
  const list = Array.isArray(value) ? value : [value]
  const samples = z.array(Sample).min(1).safeParse(list)
  if (!samples.success) {
    throw new ImportFileError(
      name,
      null,
      `is not a chat log Loomverse can read: a .json chat log must be LoCoMo JSON (${issue(samples.error)}); ` +
        'JSON Lines (.jsonl) and "speaker: text" transcripts (.txt) work too',
    )
  }
  const prefixed = samples.data.length > 1
  return samples.data.flatMap((sample, s) => {
    const sessions = Object.keys(sample.conversation)
      .map((key) => /^session_(\d+)$/.exec(key))
      .filter((m) => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b)
    if (sessions.length === 0) throw new ImportFileError(name, null, `sample ${s + 1} has no session_N lists of turns`)
    return sessions.flatMap((n): SourceRow[] => {
      const key = `session_${n}`
      const turns = sample.conversation[key]
      const when = sample.conversation[`${key}_date_time`]
      const at = typeof when === 'string' || typeof when === 'number' ? readTime(when) : null
      if (!Array.isArray(turns)) return [{ line: lineOf(json, key), problem: `${key} is not a list of turns` }]
      if (at === null) {
        const problem = `${key}_date_time: cannot be read; use ${TIME_FORMS}`
        return [{ line: lineOf(json, `${key}_date_time`), problem }]
      }
      return turns.map((raw: unknown, i): SourceRow => {
        const turn = Turn.safeParse(raw)
        if (!turn.success) {
          const dia = (raw as { dia_id?: unknown } | null)?.dia_id
          const line = (typeof dia === 'string' ? lineOf(json, 'dia_id', dia) : null) ?? lineOf(json, key)
          return { line, problem: `${key} turn ${i + 1}: ${issue(turn.error)}` }
        }
        const { dia_id, speaker, text, blip_caption } = turn.data
        return {
          line: null,
          message: {
            id: prefixed ? `${sample.sample_id ?? s + 1}:${dia_id}` : dia_id,
            speaker,
            text: blip_caption ? `${text} [shares a photo: ${blip_caption}]` : text,
            at: at + i * TURN_SPACING,
          },
        }
      })
    })
  })
}

/**
 * The line of a key (and, given one, its string value) in a JSON text, for a problem's
 * report; the first one in the file, as the report only needs to lead the user near it.
 */
function lineOf(json: string, key: string, value?: string): number | null {
  const pattern =
    escape(JSON.stringify(key)) + (value === undefined ? '\\s*:' : `\\s*:\\s*${escape(JSON.stringify(value))}`)
  const m = new RegExp(pattern).exec(json)
  return m ? lineAtOffset(json, m.index) : null
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The first issue as `path: message` (zod's messages name types and limits, never the value). */
function issue(error: z.ZodError, field?: string): string {
  const first = error.issues[0]!
  const path = first.path.map(String).join('.') || field || '(value)'
  return `${path}: ${first.message}`
}
