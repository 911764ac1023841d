import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// The two corpora other work brings (issue 16): malformed WebSocket frames and hostile
// imports. They live beside this file once merged; until then the suite reports them as
// missing instead of failing to compile. The shapes expected of them:

/** One malformed frame: the bytes a client writes on the socket after the handshake, exactly as on the wire. */
export interface Frame {
  name: string
  bytes: Buffer
}

/** Which importer reads a hostile case. */
export type ImportKind = 'vizprompt' | 'memory_jsonl'

/** One hostile import: writes its files under `dir` and says what to import. */
export interface HostileImport {
  name: string
  kind: ImportKind
  /** Returns the path to import: the export folder (vizprompt) or the .jsonl file (memory_jsonl). */
  write(dir: string): string | Promise<string>
}

/**
 * `frameCorpus.ts` exporting `frameCorpus: Frame[]`, and `hostileImports.ts` exporting
 * `hostileImports: HostileImport[]`. A module found with another shape is an error naming
 * what was expected, so a merge that drifts fails loudly rather than silently testing nothing.
 */
export async function loadFrameCorpus(): Promise<Frame[] | null> {
  const mod = await loadBeside('./frameCorpus.ts')
  if (!mod) return null
  const corpus = mod.frameCorpus
  if (!Array.isArray(corpus) || !corpus.every((f) => typeof f?.name === 'string' && Buffer.isBuffer(f?.bytes))) {
    throw new Error('tests/reliability/frameCorpus.ts must export frameCorpus: Array<{ name: string; bytes: Buffer }>')
  }
  return corpus as Frame[]
}

export async function loadHostileImports(): Promise<HostileImport[] | null> {
  const mod = await loadBeside('./hostileImports.ts')
  if (!mod) return null
  const cases = mod.hostileImports
  const kinds: readonly unknown[] = ['vizprompt', 'memory_jsonl'] satisfies ImportKind[]
  if (
    !Array.isArray(cases) ||
    !cases.every((c) => typeof c?.name === 'string' && kinds.includes(c?.kind) && typeof c?.write === 'function')
  ) {
    throw new Error(
      'tests/reliability/hostileImports.ts must export hostileImports: Array<{ name: string; ' +
        "kind: 'vizprompt' | 'memory_jsonl'; write(dir: string): string | Promise<string> }>",
    )
  }
  return cases as HostileImport[]
}

/** Imports a module beside this one if it exists; the specifier is computed so the branch compiles without it. */
async function loadBeside(relative: string): Promise<Record<string, unknown> | null> {
  const url = new URL(relative, import.meta.url)
  if (!existsSync(fileURLToPath(url))) return null
  return (await import(/* @vite-ignore */ url.href)) as Record<string, unknown>
}
