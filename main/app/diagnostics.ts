/**
 * What Help → "Copy diagnostics" puts on the clipboard: versions, paths and the last errors,
 * so a user can paste it into a bug report. Never API keys and never conversation text: error
 * lines are cut to their first line, key-like strings and quoted text are masked.
 */

const MAX_ERRORS = 20
const MAX_LINE = 240

/** Strings shaped like provider keys or bearer tokens (OpenAI sk-…, Google AIza…, long hex/base64). */
const secretLike = /\b(sk-[\w-]{8,}|AIza[\w-]{20,}|lv_[\w-]{8,}|Bearer\s+\S+|[A-Za-z0-9+/_-]{32,})/g
/** Quoted text may be a message or a prompt the error echoes back. */
const quoted = /(["'`“«「])[^"'`”»」\n]{12,}(["'`”»」])/g

/** One error line, safe to share. */
export function redactError(text: string): string {
  const firstLine = text.split('\n', 1)[0] ?? ''
  const masked = firstLine.replace(secretLike, '[redacted]').replace(quoted, '$1…$2')
  return masked.length > MAX_LINE ? `${masked.slice(0, MAX_LINE)}…` : masked
}

/** The last errors this run, oldest first, already redacted. */
export class RecentErrors {
  private readonly lines: string[] = []

  constructor(private readonly now: () => Date = () => new Date()) {}

  record(error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    this.lines.push(`${this.now().toISOString()} ${redactError(text)}`)
    if (this.lines.length > MAX_ERRORS) this.lines.shift()
  }

  list(): readonly string[] {
    return this.lines
  }
}

export interface DiagnosticsInfo {
  app: { name: string; version: string; packaged: boolean }
  versions: Partial<Record<'electron' | 'chrome' | 'node' | 'v8', string>>
  os: { platform: string; arch: string; release: string }
  paths: Record<string, string>
  errors: readonly string[]
}

/** The text copied to the clipboard. */
export function diagnosticsText(info: DiagnosticsInfo): string {
  const lines = [
    `${info.app.name} ${info.app.version}${info.app.packaged ? '' : ' (development)'}`,
    `OS: ${info.os.platform} ${info.os.release} ${info.os.arch}`,
    ...Object.entries(info.versions).map(([name, version]) => `${name}: ${version}`),
    '',
    'Paths:',
    ...Object.entries(info.paths).map(([name, path]) => `  ${name}: ${path}`),
    '',
    info.errors.length ? `Last errors (${info.errors.length}):` : 'No errors this run.',
    ...info.errors.map((line) => `  ${redactError(line)}`),
  ]
  return lines.join('\n')
}
