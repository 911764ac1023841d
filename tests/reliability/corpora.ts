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

/** Where a hostile case is imported: a VizPrompt folder, or a chat log from a window or the command line. */
export type HostileTarget = 'vizprompt' | 'memory-window' | 'memory-cli'

/** The folders a case writes into (made by the corpus's `hostilePlace`). */
export interface HostilePlace {
  root: string
  /** The data home's imports/ folder. */
  imports: string
  /** A file outside the import holding the corpus's canary, for links and paths to point at. */
  secret: string
}

/** What a case asks to import, and how the refusal must name it. */
export interface HostileInput {
  path: string
  file: string
  /** The line the refusal names; null when the whole file is refused. */
  line: number | null
}

export interface HostileCase {
  name: string
  target: HostileTarget
  /** False where the platform cannot make the case (FIFOs and links on Windows). */
  available: boolean
  build(place: HostilePlace): HostileInput
}

export interface HostileCorpus {
  cases: HostileCase[]
  place(root: string, imports: string): HostilePlace
  /** Text of the secret file: it must never show up in a refusal. */
  canary: string
}

/**
 * `frameCorpus.ts` exporting `frameCorpus: Frame[]`, and `hostileImports.ts` exporting
 * `hostileCases: HostileCase[]`, `hostilePlace(root, imports)` and `SECRET_CANARY`. A module found with another shape is an error naming
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

export async function loadHostileImports(): Promise<HostileCorpus | null> {
  const mod = await loadBeside('./hostileImports.ts')
  if (!mod) return null
  const { hostileCases: cases, hostilePlace: place, SECRET_CANARY: canary } = mod
  const targets: readonly unknown[] = ['vizprompt', 'memory-window', 'memory-cli'] satisfies HostileTarget[]
  if (
    !Array.isArray(cases) ||
    !cases.every((c) => typeof c?.name === 'string' && targets.includes(c?.target) && typeof c?.build === 'function') ||
    typeof place !== 'function' ||
    typeof canary !== 'string'
  ) {
    throw new Error(
      'tests/reliability/hostileImports.ts must export hostileCases: Array<{ name; target; available; build(place) }>, ' +
        'hostilePlace(root, imports) and SECRET_CANARY',
    )
  }
  return { cases: cases as HostileCase[], place: place as HostileCorpus['place'], canary }
}

/** Imports a module beside this one if it exists; the specifier is computed so the branch compiles without it. */
async function loadBeside(relative: string): Promise<Record<string, unknown> | null> {
  const url = new URL(relative, import.meta.url)
  if (!existsSync(fileURLToPath(url))) return null
  return (await import(/* @vite-ignore */ url.href)) as Record<string, unknown>
}
