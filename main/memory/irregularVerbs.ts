// English irregular verbs, base form → simple past (and past participle when it differs).
// A question asks "When did she go…", its answer says "I went…": no stemmer joins the two
// (Porter folds "visited" to "visit", never "went" to "go"). Common verbs of everyday talk only.

const TABLE = `arise arose arisen|awake awoke awoken|bear bore borne|beat beat beaten|become became become|begin began begun
bend bent|bet bet|bind bound|bite bit bitten|bleed bled|blow blew blown|break broke broken|breed bred|bring brought
build built|burn burnt|buy bought|catch caught|choose chose chosen|cling clung|come came come|cost cost|creep crept
cut cut|deal dealt|dig dug|draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|eat ate eaten|fall fell fallen
feed fed|feel felt|fight fought|find found|flee fled|fly flew flown|forbid forbade forbidden|forget forgot forgotten
forgive forgave forgiven|freeze froze frozen|give gave given|go went gone|grind ground|grow grew grown|hang hung
hear heard|hide hid hidden|hit hit|hold held|hurt hurt|keep kept|kneel knelt|know knew known|lay laid|lead led
lean leant|leap leapt|learn learnt|leave left|lend lent|let let|lie lay lain|light lit|lose lost|make made|mean meant
meet met|pay paid|prove proved proven|put put|quit quit|read read|ride rode ridden|ring rang rung|rise rose risen
run ran run|say said|see saw seen|seek sought|sell sold|send sent|set set|sew sewed sewn|shake shook shaken|shine shone
shoot shot|show showed shown|shrink shrank shrunk|shut shut|sing sang sung|sink sank sunk|sit sat|sleep slept
slide slid|speak spoke spoken|speed sped|spend spent|spin spun|split split|spread spread|spring sprang sprung
stand stood|steal stole stolen|stick stuck|sting stung|strike struck|strive strove striven|swear swore sworn
sweep swept|swim swam swum|swing swung|take took taken|teach taught|tear tore torn|tell told|think thought
throw threw thrown|understand understood|wake woke woken|wear wore worn|weave wove woven|weep wept|win won
wind wound|withdraw withdrew withdrawn|write wrote written|overcome overcame overcome|undergo underwent undergone
upset upset|rebuild rebuilt|retake retook retaken|rewrite rewrote rewritten|mislead misled|misunderstand misunderstood`

/** Each form (base, past, participle) → every form of its verb, itself included. */
const FORMS = new Map<string, readonly string[]>()
for (const entry of TABLE.split(/\||\n/)) {
  const forms = [...new Set(entry.trim().split(/\s+/))]
  for (const form of forms) FORMS.set(form, [...new Set([...(FORMS.get(form) ?? []), ...forms])])
}
/** The auxiliaries are stop words to search, but a statement needs their past all the same. */
const PAST = new Map<string, string>([
  ['have', 'had'],
  ['do', 'did'],
  ['be', 'was'],
])
for (const entry of TABLE.split(/\||\n/)) {
  const [base, past] = entry.trim().split(/\s+/)
  PAST.set(base!, past!)
}

/** The other forms of an irregular verb ("go" → went, gone; "bought" → buy), or none. */
export function otherVerbForms(word: string): readonly string[] {
  return (FORMS.get(word.toLowerCase()) ?? []).filter((f) => f !== word.toLowerCase())
}

/** The simple past of a base form: the table's, else the regular spelling rules. */
export function pastOf(verb: string): string {
  const v = verb.toLowerCase()
  const irregular = PAST.get(v)
  if (irregular) return irregular
  if (v.endsWith('e')) return `${v}d`
  if (/[^aeiou]y$/.test(v)) return `${v.slice(0, -1)}ied`
  return `${v}ed`
}
