// Text in and out of XML without a DTD. Entity expansion is off in the parser (no DOCTYPE is
// ever accepted), so the five predefined entities and character references are decoded here.
//
// Line ends: every conforming XML parser turns CR and CRLF into LF, even inside CDATA, so a
// CR is written as the reference `&#13;`, which parsers must hand back unchanged.

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' }
const ATTRIBUTE_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '"': '&quot;', '\n': '&#10;', '\t': '&#9;' }
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** Element content. */
export function escapeText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]!)
}

/** An attribute value in double quotes; tabs and newlines too, which parsers would turn into spaces. */
export function escapeAttribute(text: string): string {
  return text.replace(/[&<>"\r\n\t]/g, (c) => ATTRIBUTE_ESCAPES[c]!)
}

/** Decodes `&amp;`, `&#13;`, `&#x1F600;`…; a bare `&` or any other entity is an error. */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:(#x[0-9a-f]+|#[0-9]+|[a-z]+);)?/gi, (match, ref: string | undefined) => {
    if (ref === undefined) throw new Error('a bare "&" (write it as &amp;)')
    if (!ref.startsWith('#')) {
      const named = NAMED[ref]
      if (named === undefined) throw new Error(`unknown entity ${match}: only &amp; &lt; &gt; &quot; &apos; exist`)
      return named
    }
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
    if (code > 0x10ffff) throw new Error(`character reference ${match} is out of range`)
    // A NUL or half a surrogate pair is no character: XML forbids both, and they would change the text.
    if (code === 0 || (code >= 0xd800 && code <= 0xdfff))
      throw new Error(`character reference ${match} is not a character XML allows`)
    return String.fromCodePoint(code)
  })
}

/**
 * Text in CDATA sections, framed by a newline on each side as the seed writes it. `]]>`
 * cannot appear inside a section, so it is split across two adjacent ones; a CR ends the
 * section and is written as `&#13;` between sections.
 */
export function cdata(text: string): string {
  const body = text
    .split('\r')
    .map((part) => part.replaceAll(']]>', ']]]]><![CDATA[>'))
    .join(']]>&#13;<![CDATA[')
  return `<![CDATA[\n${body}\n]]>`
}

/** Undoes the framing of `cdata`: one newline at each end, if there. */
export function unframe(text: string): string {
  const start = text.startsWith('\n') ? 1 : 0
  const end = text.length > start && text.endsWith('\n') ? text.length - 1 : text.length
  return text.slice(start, end)
}

/**
 * The text with every CDATA section and comment blanked out (line breaks kept, so offsets
 * and line numbers still match). Markup checks look at this, not at conversation text that
 * may well contain `<!DOCTYPE html>`.
 */
export function markupOnly(xml: string): string {
  return xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->/g, (m) => m.replace(/[^\n]/g, ' '))
}
