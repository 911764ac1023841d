/** What the user is doing, which decides the MemoryPack's mix (seed 004: intent + budget). */
export type Intent = 'recall' | 'plan' | 'fact' | 'smalltalk' | 'general'

export interface Classified {
  intent: Intent
  /** False when no rule spoke clearly; a caller with time may ask the lightweight model. */
  confident: boolean
}

const rules: Array<[Intent, RegExp]> = [
  [
    'recall',
    /\b(remember|recall|last time|when did|did i|did we|what did|earlier|before|ago|yesterday|told you)\b|覚えて|思い出|前に|この前|昨日|先週|いつ/i,
  ],
  [
    'plan',
    /\b(todo|to-do|remind|plan|schedule|tomorrow|next week|deadline|due|later|follow up)\b|予定|リマインド|明日|来週|締め切り|やること/i,
  ],
  [
    'fact',
    /\b(who is|what is my|my favou?rite|do i like|where do i|what's my|how old|birthday|name of)\b|好き|誕生日|名前|どこに住/i,
  ],
  [
    'smalltalk',
    /^\s*(hi|hello|hey|good (morning|night|evening)|thanks|thank you|ok|okay)\b|^\s*(こんにちは|おはよう|こんばんは|ありがとう)/i,
  ],
]

/** Cheap rules first; the first that matches wins. */
export function classifyIntent(query: string): Classified {
  const hits = rules.filter(([, re]) => re.test(query)).map(([intent]) => intent)
  if (hits.length === 0) return { intent: 'general', confident: false }
  return { intent: hits[0]!, confident: hits.length === 1 }
}

/** How much each retrieved kind is worth for an intent (persona and contract are always in). */
export const intentWeights: Record<Intent, { episode: number; fact: number; summary: number; loop: number }> = {
  recall: { episode: 1.0, fact: 0.7, summary: 0.8, loop: 0.3 },
  plan: { episode: 0.5, fact: 0.6, summary: 0.4, loop: 1.0 },
  fact: { episode: 0.6, fact: 1.0, summary: 0.6, loop: 0.3 },
  smalltalk: { episode: 0.4, fact: 0.5, summary: 0.6, loop: 0.6 },
  general: { episode: 0.8, fact: 0.8, summary: 0.7, loop: 0.5 },
}
