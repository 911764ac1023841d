import { FEATURES } from './rankFeatures'
import { fitted } from './rankerWeights'

// The learned ranker: a logistic model over each hit's FEATURES (rankFeatures.ts), giving the
// chance that the unit is what the query is after. Fitted on LoCoMo conversations 0–2 only by
// bench/memory/fitRanker.ts, which also reports it against the hand fusion alone, each
// conversation held out in turn. Conversations 3–4 are never read there.

export interface RankerModel {
  features: readonly string[]
  /** Each feature is standardised ((value − mean) / scale) before its weight. */
  mean: readonly number[]
  scale: readonly number[]
  weights: readonly number[]
  bias: number
}

/**
 * The model packs use. A plain object so the fitting script can try others; the app never
 * writes it. Weights fitted on other features are not used: every pack fails, naming the fix
 * (not at load, or the fitting script could not load either).
 */
export const ranker: RankerModel =
  fitted.features.join() === FEATURES.join()
    ? { ...fitted }
    : { features: [], mean: [], scale: [], weights: [], bias: 0 }

/** The chance (0–1) that a hit with these features holds what the query asks for. */
export function relevance(features: readonly number[]): number {
  if (ranker.weights.length !== features.length)
    throw new Error('rankerWeights.ts was fitted on other features: run bench/memory/fitRanker.ts again')
  let z = ranker.bias
  for (let i = 0; i < features.length; i++)
    z += ((features[i]! - ranker.mean[i]!) / ranker.scale[i]!) * ranker.weights[i]!
  return 1 / (1 + Math.exp(-z))
}
