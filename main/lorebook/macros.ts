/** What the macros read: the persona's name, the user's, the time, and a seeded random for {{random}}. */
export interface MacroScope {
  char: string
  user: string
  now: Date
  random: (salt: string) => number
  /** Fired outlet entries' text by outlet name, for {{outlet::name}} (an outlet with none is empty). */
  outlets?: ReadonlyMap<string, string>
}

/**
 * SillyTavern's macros in persona text, greetings, lorebook entries and notes: {{char}}, {{user}},
 * {{time}}, {{date}}, {{random:a,b,c}} (also {{random::a::b}}, for choices that hold commas),
 * SillyTavern's older <USER> and <BOT>, and {{outlet::name}} (the text of the fired entries of
 * that outlet). A macro it does not know is left as written.
 */
export function expandMacros(text: string, scope: MacroScope): string {
  if (!text.includes('{{') && !text.includes('<')) return text
  let draws = 0
  return text
    .replace(/\{\{outlet::([^}]*)\}\}/gi, (_all, name: string) => scope.outlets?.get(name.trim()) ?? '')
    .replace(/\{\{\s*(char|user|time|date)\s*\}\}|<(USER|BOT)>/gi, (_all, name: string | undefined, old?: string) => {
      const key = (name ?? (old?.toUpperCase() === 'BOT' ? 'char' : 'user')).toLowerCase()
      if (key === 'char') return scope.char
      if (key === 'user') return scope.user
      if (key === 'time') return scope.now.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })
      return scope.now.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
    })
    .replace(/\{\{random(::?)([^}]*)\}\}/gi, (all, sep: string, body: string) => {
      const choices = sep === '::' ? body.split('::') : body.split(',')
      if (choices.length === 0 || body === '') return all
      const pick = Math.floor(scope.random(`random:${draws++}:${body}`) * choices.length)
      return choices[Math.min(pick, choices.length - 1)]!.trim()
    })
}
