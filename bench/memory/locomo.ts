import { evidenceRecall } from './evidenceRecall'
import { readLocomo } from './locomoData'
import { personaConversations, SYNTHETIC_CATEGORY_NAMES, SYNTHETIC_SEED } from './personaConversations'

// LoCoMo evidence recall, and the same on the synthetic persona conversations
// (personaConversations.ts), each beside the two FTS5 BM25 baselines.
//
// The protocol, fixed before the figures (issue 36): every retrieval setting and every change
// is chosen on LoCoMo conversations 0–2 (in-sample); conversations 3–4 are reported as the
// out-of-sample figure and never used to choose anything; the synthetic set is a check that a
// change is not LoCoMo-shaped (a change is kept only when it does not cost it either).
// LOOMVERSE_LOCOMO_SPLIT=in prints the in-sample and synthetic lines only (what trials look at).

export const PROTOCOL =
  'chosen on LoCoMo 0-2 (in-sample); LoCoMo 3-4 reported, never chosen on (out-of-sample); synthetic set a check, never tuned on'

const LOCOMO_SPLITS = [
  { split: 'in-sample', picked: [0, 1, 2] },
  { split: 'out-of-sample', picked: [3, 4] },
] as const

export async function locomo(path: string, print: (o: Record<string, unknown>) => void): Promise<void> {
  const only = process.env.LOOMVERSE_LOCOMO_SPLIT === 'in' ? 'in-sample' : null
  const conversations = readLocomo(path)
  if (!conversations)
    print({ bench: 'memory.locomo', skipped: `no LoCoMo data there; set LOOMVERSE_LOCOMO to its locomo_dev.json` })
  else
    await evidenceRecall(
      'memory.locomo',
      LOCOMO_SPLITS.filter((s) => !only || s.split === only).map(({ split, picked }) => ({
        split,
        conversations: picked.map((i) => conversations[i]).filter((c) => c !== undefined),
      })),
      print,
      { tuned_on: 'conversations 0-2', protocol: PROTOCOL },
    )
  await evidenceRecall('memory.synthetic_recall', [{ split: 'check', conversations: personaConversations() }], print, {
    tuned_on: 'nothing',
    protocol: `${PROTOCOL}; seed ${SYNTHETIC_SEED}`,
    categories: SYNTHETIC_CATEGORY_NAMES,
  })
}
