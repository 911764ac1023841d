import type { Db } from '../db/open'
import { statements } from '../db/statements'
import { isoNow } from '../kernel/time'

/** How one chat model counts against our count: its prompt tokens per token we counted. */
export interface Calibration {
  model: string
  ratio: number
  samples: number
}

/** Below this many counted tokens a reply says more about message framing than about the tokenizer. */
const MIN_COUNTED = 200
/** A ratio outside these is a provider counting something else (cached prompts, images): not learned from. */
const PLAUSIBLE = { min: 0.5, max: 3 }
/** The running mean weighs about this many recent replies, so a model swapped behind the same name is followed within a few turns. */
const WINDOW = 8

/**
 * Token counts calibrated per chat model from the usage its provider reports. We count with one
 * tokenizer (o200k); Llama, Gemma or Qwen models count the same text as up to twice as many
 * tokens, so a context that fits our budget can overflow theirs and lose its beginning. Each
 * complete reply with usage adds a sample; the context builder divides the budget by the ratio.
 */
export class TokenCalibration {
  private readonly sql: ReturnType<typeof statements>

  constructor(db: Db) {
    this.sql = statements(db)
  }

  of(model: string): Calibration | null {
    const row = this.sql('SELECT model, ratio, samples FROM token_calibration WHERE model = ?').get(model) as
      Calibration | undefined
    return row ?? null
  }

  /** Learns from one reply: we counted `counted` tokens in what was sent, the provider `reported`. */
  record(model: string, counted: number, reported: number): void {
    if (counted < MIN_COUNTED || !(reported > 0)) return
    const sample = reported / counted
    if (sample < PLAUSIBLE.min || sample > PLAUSIBLE.max) return
    const before = this.of(model)
    const samples = (before?.samples ?? 0) + 1
    const ratio = before ? before.ratio + (sample - before.ratio) / Math.min(samples, WINDOW) : sample
    this.sql(
      `INSERT INTO token_calibration (model, ratio, samples, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (model) DO UPDATE SET ratio = excluded.ratio, samples = excluded.samples, updated_at = excluded.updated_at`,
    ).run(model, ratio, samples, isoNow())
  }
}
