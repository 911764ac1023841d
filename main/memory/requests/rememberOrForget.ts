/**
 * What a user's message asks the persona to remember, in so many words ("Remember that my cat is
 * called Mochi.", 「猫の名前はモチだって覚えておいて」): the statement, or null. A companion's user
 * expects such a thing kept for good, not left to whether a later question happens to find the
 * turn, so the persona keeps it as a pinned fact (MemoryService.rememberTold).
 *
 * Only a request counts: a question ("Do you remember that day?", 「覚えてる？」), a memory of the
 * user's own ("I remember when…"), a reminder ("remember to call Mom") and reminiscing ("remember
 * when we…") do not. Rules, not a model: the model may be slow, absent or paid for, and a false
 * "Remembered" costs the user an Undo where a missed one costs nothing they did not have before.
 */
export function askedToRemember(message: string): string | null {
  return firstSentenceSaying(message, askedInEnglish, askedInJapanese)
}

/** What the first sentence any of `readers` reads says (a reader per language). */
function firstSentenceSaying(message: string, ...readers: Array<(sentence: string) => string | null>): string | null {
  const text = message.normalize('NFKC').replace(/\s+/g, ' ').trim()
  for (const sentence of sentencesOf(text))
    for (const read of readers) {
      const said = read(sentence)
      if (said !== null) return said
    }
  return null
}

/** The shortest statement worth keeping: "I'm vegetarian" (2 words), 「誕生日は5月」 (4 characters and more). */
const MIN_WORDS = 2
const MIN_CJK_CHARS = 4

/**
 * Sentences, each with its closing mark. A mark inside the statement ("Mochi. She is grey.") splits
 * it: only the first sentence after "remember" is kept, which is what the request usually spans.
 */
function sentencesOf(text: string): string[] {
  return text.match(/[^.!?。！？\n]+[.!?。！？]*/g)?.map((s) => s.trim()) ?? []
}

/** "(Please) remember (that) …", "Don't forget (that) …", "Keep in mind (that) …", after an "Oh, and" or so. */
const EN_ASK =
  /^(?:(?:oh|ok|okay|and|also|btw|by the way|hey|so)\b[\s,]*)*(?:please\s+|pls\s+)?(?:remember|don'?t forget|do not forget|never forget|keep in mind|make a note|note down)\b(?:\s+(?<pointer>this|that)\b)?(?<mark>[\s,:;-]*)(?:that\s+)?(?<told>.*)$/i

/**
 * What follows a request that is no statement: a reminder ("to call Mom"), a memory shared ("when
 * we…", "how it felt"), a plea ("me"), or after "that"/"this" a thing, not a clause ("that day at
 * the lake", "this song").
 */
const NOT_TOLD = /^(?:to|when|how|where|what|who|me|us|it|always|forever)\b/i
const A_THING =
  /^(?:day|days|time|times|night|morning|evening|moment|place|trip|song|movie|film|book|week|weekend|summer|winter|spring|autumn|fall|year|one|thing|guy|girl|feeling)\b/i

function askedInEnglish(sentence: string): string | null {
  if (sentence.endsWith('?')) return null
  const m = EN_ASK.exec(sentence)
  if (!m?.groups) return null
  const { pointer, mark, told: rest } = m.groups as { pointer?: string; mark: string; told: string }
  const told = rest
    .replace(/[.!]+$/, '')
    .replace(/,?\s*(?:please|ok|okay|thanks|thank you)$/i, '')
    .trim()
  if (NOT_TOLD.test(told)) return null
  // "Remember that day at the lake" is a day; "Remember that: …", "Remember this, …" say what follows.
  if (pointer && !/[:,;-]/.test(mark) && A_THING.test(told)) return null
  return told.split(/\s+/).length >= MIN_WORDS ? told : null
}

/** 「…って／と／を覚えておいて」「…を忘れないで」 and their politer forms, the statement before the particle. */
const JA_BEFORE =
  /^(.+?)(?:だ|です|な)?(?:って|と|ということを|ってことを|ことを|のを|を)(?:ちゃんと|しっかり|ずっと)?(?:覚えて(?:おいて|おいてね|おいてください|ください|てね|て|いて|いてね|といて|とい)|覚えておくように|記憶しておいて|忘れないで(?:ね|ください|いて|おいて)?)(?:ね|よ|な)?[。！!.]*$/
/** 「覚えておいて：…」 */
const JA_AFTER =
  /^(?:これを|これ)?(?:覚えておいて|覚えておいてください|覚えといて|忘れないで)[ねよ]?[:：、,]\s*(.+?)[。！!.]*$/

function askedInJapanese(sentence: string): string | null {
  if (/[?？]$/.test(sentence)) return null
  const m = JA_BEFORE.exec(sentence) ?? JA_AFTER.exec(sentence)
  if (!m) return null
  // 「ねえ、」「あと、」 before the statement are the sentence's opening, not what to keep.
  const told = m[1]!.replace(/^(?:ねえ|ねぇ|あと|それと|それから|あのね|ところで)[、,\s]*/, '').trim()
  return [...told].length >= MIN_CJK_CHARS ? told : null
}

/**
 * What a user's message asks the persona to forget ("Forget that my cat is called Mochi",
 * 「猫の名前はモチって忘れて」): the statement, or null. Only what was asked to be remembered is
 * forgotten so (toldFacts.forgetTold); a question ("Did you forget?") or "never forget" asks nothing.
 */
export function askedToForget(message: string): string | null {
  return firstSentenceSaying(message, forgetInEnglish, forgetInJapanese)
}

const EN_FORGET =
  /^(?:(?:oh|ok|okay|and|also|actually|btw|hey|so)\b[\s,]*)*(?:please\s+|pls\s+)?(?:forget|stop remembering|unremember)\b(?:\s+(?:that|about|what i said about))?[\s,:;-]*(?<told>.*)$/i

function forgetInEnglish(sentence: string): string | null {
  if (sentence.endsWith('?')) return null
  const m = EN_FORGET.exec(sentence)
  if (!m?.groups) return null
  const told = m.groups
    .told!.replace(/[.!]+$/, '')
    .replace(/,?\s*(?:please|ok|okay|thanks|thank you)$/i, '')
    .trim()
  // "Forget it", "forget to …" (a slip), "forget me" ask nothing to be forgotten.
  if (/^(?:it|to|me|us|this|that|everything)\b/i.test(told)) return null
  return told.split(/\s+/).length >= MIN_WORDS ? told : null
}

/** 「…って／と／を／のことは忘れて」 and politer forms; never 「忘れないで」 (don't forget). */
const JA_FORGET =
  /^(.+?)(?:だ|です|な)?(?:って|と|ということは|ということを|ってことは|ってことを|ことは|ことを|のことは|のことを|のは|のを|は|を)(?:もう)?忘れて(?:いい|いいよ|ください|ね|くれ|ほしい)?(?:よ|ね)?[。！!.]*$/

function forgetInJapanese(sentence: string): string | null {
  if (/[?？]$/.test(sentence)) return null
  const m = JA_FORGET.exec(sentence)
  if (!m) return null
  const told = m[1]!.replace(/^(?:ねえ|ねぇ|あと|それと|やっぱり|あのね)[、,\s]*/, '').trim()
  return [...told].length >= MIN_CJK_CHARS ? told : null
}
