import type { IncomingMessage } from 'node:http'

// The page a person gets for an address whose token the host no longer takes (renewed, or from
// another data folder), or none at all: what happened and where the current address is, in
// their language. It carries no script and names no path or token of this machine.

type Language = 'en' | 'ja'

/** A browser opening a page (not a script or an asset asking): it reads HTML. */
export function wantsPage(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  return (req.headers.accept ?? '').includes('text/html')
}

/** The first of the reader's languages (by `q`) that the page is written in; English otherwise. */
export function staleTokenLanguage(header: string | string[] | undefined): Language {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '')
  const ranked = text
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';')
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.split('=')[1] ?? '1')
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, i }
    })
    .filter((x) => x.tag && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
  for (const { tag } of ranked) {
    if (tag === 'ja' || tag.startsWith('ja-')) return 'ja'
    if (tag === 'en' || tag.startsWith('en-')) return 'en'
  }
  return 'en'
}

const WORDS: Record<Language, { title: string; lead: string; steps: string[]; after: string }> = {
  en: {
    title: 'This Loomverse address is out of date',
    lead: 'The address this tab was opened with carries an access token that Loomverse no longer accepts: a new token was made, or the address belongs to another data folder. Your conversations are safe; only the address changed.',
    steps: [
      'Look in the terminal where Loomverse runs (<code>npm start</code> or <code>loomverse serve</code>) for the line <code>Loomverse is running at http://127.0.0.1:…/?token=…</code>.',
      'Or run <code>npx loomverse token</code> in the Loomverse folder: it prints the current address (add <code>--home DIR</code> for another data folder).',
      'Or open <code>host.json</code> in the data folder (<code>~/.loomverse</code> unless you chose another): its <code>"url"</code> is the address.',
    ],
    after:
      'Open that address in this tab. Loomverse keeps its token across restarts, so the address stays good until someone asks for a new token.',
  },
  ja: {
    title: 'この Loomverse のアドレスは古くなっています',
    lead: 'このタブを開いたアドレスのアクセストークンは、もう受け付けられません。新しいトークンが作られたか、別のデータフォルダのアドレスです。会話は無事です。変わったのはアドレスだけです。',
    steps: [
      'Loomverse を動かしているターミナル（<code>npm start</code> または <code>loomverse serve</code>）で、<code>Loomverse is running at http://127.0.0.1:…/?token=…</code> の行を探してください。',
      'または Loomverse のフォルダで <code>npx loomverse token</code> を実行すると、今のアドレスが表示されます（別のデータフォルダなら <code>--home DIR</code> を付けます）。',
      'またはデータフォルダ（指定がなければ <code>~/.loomverse</code>）の <code>host.json</code> を開き、<code>"url"</code> のアドレスを使ってください。',
    ],
    after:
      'そのアドレスをこのタブで開いてください。Loomverse は再起動してもトークンを保つので、新しいトークンを求めない限りアドレスは変わりません。',
  },
}

export function staleTokenPage(acceptLanguage: string | string[] | undefined): string {
  const language = staleTokenLanguage(acceptLanguage)
  const w = WORDS[language]
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${w.title}</title>
<style>
  :root { color-scheme: light dark; --bg: #f7f6fb; --card: #fff; --text: #1e1b2e; --muted: #6b6780; --line: #dcd8ea; --accent: #5a46c8; --code: #f0eef7; }
  @media (prefers-color-scheme: dark) {
    :root { --bg: #15131f; --card: #1f1c2c; --text: #ebe8f7; --muted: #a29dba; --line: #363150; --accent: #a99bff; --code: #2a2640; }
  }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--text);
    font: 15px/1.6 system-ui, -apple-system, "Segoe UI", "Noto Sans JP", "Hiragino Sans", sans-serif; padding: 24px; }
  main { max-width: 40rem; background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 32px 36px; }
  .mark { width: 40px; height: 40px; border-radius: 10px; background: var(--accent); color: var(--card); display: grid;
    place-items: center; font-weight: 700; font-size: 20px; margin-bottom: 16px; }
  h1 { font-size: 20px; line-height: 1.35; margin: 0 0 12px; }
  p { margin: 0 0 16px; color: var(--muted); }
  ol { margin: 0 0 16px; padding-left: 1.4em; }
  li { margin: 0 0 10px; }
  code { background: var(--code); border-radius: 4px; padding: 1px 5px; font: 0.9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
</style>
</head>
<body>
<main>
<div class="mark" aria-hidden="true">L</div>
<h1>${w.title}</h1>
<p>${w.lead}</p>
<ol>
${w.steps.map((s) => `<li>${s}</li>`).join('\n')}
</ol>
<p>${w.after}</p>
</main>
</body>
</html>
`
}
