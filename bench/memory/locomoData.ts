import { existsSync, readFileSync } from 'node:fs'
import { readTime } from '../../main/memory/store/importTime'

// The LoCoMo file (see ../shared/data/locomo/README.md) read into what the recall bench needs:
// each conversation's turns as import lines, and its questions with their evidence turn ids.

interface Turn {
  speaker: string
  dia_id: string
  text: string
  blip_caption?: string
}
interface Sample {
  sample_id: string
  conversation: Record<string, unknown>
  qa: Array<{ question: string; evidence: string[]; category: number }>
}

export interface Conversation {
  id: string
  /** One JSON import line per turn (importer.ts's format), session time plus 30 s a turn. */
  lines: string[]
  /** Every turn, for the baseline: the same text the import stores. */
  turns: Array<{ id: string; speaker: string; text: string; at: number }>
  questions: Array<{ question: string; category: number; evidence: string[] }>
}

/** The conversations in file order, or null when the file is not there. */
export function readLocomo(path: string): Conversation[] | null {
  if (!existsSync(path)) return null
  const samples = JSON.parse(readFileSync(path, 'utf8')) as Sample[]
  return samples.map((sample) => {
    const turns: Conversation['turns'] = []
    for (let n = 1; Array.isArray(sample.conversation[`session_${n}`]); n++) {
      // The app's own reading of "1:56 pm on 8 May, 2023" (UTC), as memory import uses it.
      const at = readTime(String(sample.conversation[`session_${n}_date_time`])) ?? 0
      ;(sample.conversation[`session_${n}`] as Turn[]).forEach((t, i) =>
        turns.push({
          id: t.dia_id,
          speaker: t.speaker,
          text: t.blip_caption ? `${t.text} [shares a photo: ${t.blip_caption}]` : t.text,
          at: at + i * 30,
        }),
      )
    }
    return {
      id: sample.sample_id,
      turns,
      lines: turns.map((t) => JSON.stringify({ id: t.id, speaker: t.speaker, text: t.text, time: t.at })),
      questions: sample.qa.map((qa) => ({
        question: qa.question,
        category: qa.category,
        // Some evidence entries hold several ids ("D8:6; D9:17").
        evidence: [...new Set(qa.evidence.flatMap((e) => e.split(/[;,]\s*/)).map((e) => e.trim()))].filter(Boolean),
      })),
    }
  })
}
