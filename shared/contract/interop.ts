import { z } from 'zod'
import { FilePath } from './names'
import { Persona } from './persona'
import type { MethodSpecs } from './spec'

const Id = z.string().uuid()
/** A folder: from a window, a name inside the data folder's exports/ or imports/; from the command line, any path. */
const FolderPath = FilePath

export const VizpromptImportSummary = z.object({
  /** Flows written: new ones and ones the export had a newer version of. */
  flows: z.number().int().nonnegative(),
  /** Nodes written: new ones and ones the export had a newer version of. */
  nodes: z.number().int().nonnegative(),
  /** Nodes deleted because a replaced flow no longer holds them and no other flow does. */
  removed: z.array(z.string()),
  /** Node ids with several files: the file used and the others, best first. */
  collisions: z.array(z.object({ id: z.string(), chosen: z.string(), candidates: z.array(z.string()) })),
  skipped: z.array(z.object({ kind: z.enum(['node', 'flow']), id: z.string(), file: z.string(), reason: z.string() })),
})
export type VizpromptImportSummary = z.infer<typeof VizpromptImportSummary>

export const interopMethods = {
  /**
   * Writes flows as a VizPrompt folder (seed §3–5), replacing a previous export there. From a
   * window the folder is `exports/<out>` in the data folder (default `vizprompt`).
   */
  vizprompt_export: {
    input: z.object({ flow_id: Id.optional(), out: FolderPath.optional() }).strict(),
    output: z.object({
      out_dir: z.string(),
      flows: z.number().int().nonnegative(),
      nodes: z.number().int().nonnegative(),
    }),
  },
  /**
   * Writes a conversation's active path (root → `node_id`) as readable Markdown: to the story's
   * `exports/` for a story, else to the data folder's `exports/`. Without `node_id`: where a story's
   * play stands, or the newest node of the flow.
   */
  export_markdown: {
    input: z.object({ flow_id: Id, node_id: Id.optional() }).strict(),
    output: z.object({
      /** Where it was written, relative to the data folder. */
      file: z.string(),
      markdown: z.string(),
      turns: z.number().int().nonnegative(),
    }),
  },
  /**
   * ChatGPT's data export (`conversations.json`, unzipped): each conversation a flow, each prompt
   * and answer a node, each regeneration or edit a branch. A conversation imported before is
   * skipped. From a window only a file under `imports/`.
   */
  chatgpt_import: {
    input: z.object({ path: FolderPath }).strict(),
    output: z.object({
      flows: z.number().int().nonnegative(),
      nodes: z.number().int().nonnegative(),
      skipped: z.array(z.object({ conversation: z.string(), reason: z.string() })),
    }),
  },
  /**
   * A SillyTavern character card (PNG, JSON or CHARX; spec v1–v3) as a new persona, with a
   * conversation opened by its greetings and the card's picture (a CHARX card's main icon) as the
   * persona's. From a window only a file under `imports/`.
   */
  character_card_import: {
    input: z.object({ path: FolderPath }).strict(),
    output: z.object({
      persona: Persona,
      flow_id: Id.nullable(),
      greetings: z.number().int().nonnegative(),
      spec: z.enum(['v1', 'v2', 'v3']),
      format: z.enum(['png', 'json', 'charx']),
      /** Whether the card's picture became the persona's. */
      avatar: z.boolean(),
      /** The card's own lorebook (character_book), made a book attached to the persona; null when it has none. */
      lorebook_id: z.string().nullable(),
      /** What the card holds that was not taken, in words for the user. */
      skipped: z.array(z.string()),
    }),
  },
  /**
   * The persona as a character card with its greetings and its lorebooks as the card's
   * character_book. `png` (the default): its picture when that is a PNG, else a blank one,
   * carrying the card twice as SillyTavern writes it, spec v2 in a `chara` chunk and v3 in a
   * `ccv3` chunk. `charx`: a Character Card V3 zip, card.json with the picture as its main icon.
   */
  character_card_export: {
    input: z.object({ persona_id: z.string().min(1).max(200), format: z.enum(['png', 'charx']).optional() }).strict(),
    output: z.object({ file_name: z.string(), data_base64: z.string() }),
  },
  /**
   * Puts a file the user chose into the data folder's imports/, a piece at a time (pieces of at
   * most 8 MB, in order: `offset` is where this one goes). The last piece (`final`) names the
   * file; a name taken already gets " (2)". Answers the file's name and size so far.
   */
  imports_upload: {
    input: z
      .object({
        name: z.string().min(1).max(200),
        offset: z.number().int().nonnegative(),
        data_base64: z.string().max(11_200_000),
        final: z.boolean(),
      })
      .strict(),
    output: z.object({ name: z.string(), size: z.number().int().nonnegative() }),
  },
  /** What the imports/ folder holds, newest first, each with a guess of what it is. */
  imports_list: {
    input: z.object({}).strict(),
    output: z.array(
      z.object({
        name: z.string(),
        size: z.number().int().nonnegative(),
        modified_at: z.string(),
        kind: z.enum(['chatgpt', 'card', 'vizprompt', 'chat_log', 'unknown']),
      }),
    ),
  },
  /** Reads a VizPrompt folder into the graph; newer versions win. From a window only a folder under `imports/`. */
  vizprompt_import: {
    input: z.object({ path: FolderPath }).strict(),
    output: VizpromptImportSummary,
  },
} as const satisfies MethodSpecs
