/** Fills `{{name}}` placeholders; an unknown one is left as written, so a user's own braces survive. */
export function fillPrompt(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole)
}

/** A sheet the model wrote, or why it cannot be used. */
export type SheetCheck = { ok: true; sheet: string } | { ok: false; why: string }

/** An update may shorten a sheet, but not drop most of it. */
const KEEP_AT_LEAST = 0.4

/**
 * Whether a model's answer can become a character sheet: Markdown with a heading, not a refusal
 * or an empty answer, and (for an update) not a fragment of the sheet it replaces. A fenced
 * answer is unwrapped first. The reason is in the UI's language: the user reads it.
 */
export function checkSheet(answer: string, before: string | null, language: 'ja' | 'en'): SheetCheck {
  const why = {
    empty: { ja: 'モデルの回答が空でした', en: 'the model returned nothing' },
    heading: {
      ja: '回答に Markdown の見出しがなく、シートとして使えません',
      en: 'the answer has no Markdown heading, so it is not a sheet',
    },
    short: { ja: '回答が元のシートの大半を失っていました', en: 'the answer dropped most of the sheet' },
  }
  const sheet = unfence(answer).trim()
  if (!sheet) return { ok: false, why: why.empty[language] }
  if (!/^#{1,6}\s+\S/m.test(sheet)) return { ok: false, why: why.heading[language] }
  if (before !== null && sheet.length < before.trim().length * KEEP_AT_LEAST)
    return { ok: false, why: why.short[language] }
  return { ok: true, sheet: `${sheet}\n` }
}

function unfence(text: string): string {
  const fenced = /^\s*```(?:markdown|md)?\s*\n([\s\S]*?)\n```\s*$/i.exec(text)
  return fenced ? fenced[1]! : text
}
