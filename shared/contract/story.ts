import { z } from 'zod'
import type { EventSpecs, MethodSpecs } from './spec'

// Story mode (NovelADV seed): a scenario project of Markdown files under
// `$LOOMVERSE_HOME/scenarios/<name>/`, played on a flow of the conversation graph by a
// game-master persona. The files are the source of truth; the database keeps what the files
// cannot (summaries per node, saves, versions of the character sheets).

const Id = z.string().uuid()

/**
 * A project's folder name. The service refuses what a file system would misread (separators,
 * `..`, reserved Windows names) with a message naming the problem; this only bounds the length.
 */
export const StoryName = z.string().trim().min(1, 'the story needs a name').max(100)
export const StoryTemplate = z.enum(['blank', 'fantasy', 'school'])
export type StoryTemplate = z.infer<typeof StoryTemplate>
/** A model for one purpose, `provider:model` or a bare model name; absent = the app's own choice. */
const ModelRef = z.string().trim().min(1).max(200)

/** `.storygamesetting.json`: the seed's settings, with the names it uses. */
export const StorySettings = z.object({
  /** Messages (a turn is two) on the active path since the last summary that start a new one. */
  summarizationTriggerMessages: z.number().int().min(4).max(2000).default(20),
  /** Turns kept word for word after a summary: the short-term memory. */
  shortTermTurns: z.number().int().min(1).max(200).default(6),
  models: z
    .object({
      chat: ModelRef.optional(),
      summary: ModelRef.optional(),
      character_update: ModelRef.optional(),
    })
    .default({}),
})
export type StorySettings = z.infer<typeof StorySettings>

export const Story = z.object({
  id: Id,
  name: z.string(),
  flow_id: Id,
  persona_id: z.string(),
  language: z.enum(['ja', 'en']),
  template: StoryTemplate,
  /** Where play resumes: the node last answered, loaded, undone to or chosen. */
  current_node_id: Id.nullable(),
  /** The node the last undo stepped back from, so redo can step forward to it again. */
  redo_node_id: Id.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  settings: StorySettings,
  /** The character sheets, `scenario/characters/*.md`, by file name. */
  characters: z.array(z.string()),
})
export type Story = z.infer<typeof Story>

/** A scenario file's path inside the project, `scenario/…/*.md`, with forward slashes. */
export const StoryPath = z
  .string()
  .min(1)
  .max(300)
  .regex(/^scenario\/[^\\]*\.md$/, 'a scenario file is a Markdown file under scenario/')

export const StoryFile = z.object({
  path: z.string(),
  /** SHA-256 of the content: the base an edit must name, so two editors never overwrite each other. */
  hash: z.string(),
  size: z.number().int().nonnegative(),
  modified_at: z.string(),
})
export type StoryFile = z.infer<typeof StoryFile>

/** The story so far, folded at `node_id`; it holds for that node and everything below it. */
export const StorySummary = z.object({
  id: z.number().int(),
  story_id: Id,
  /** Where the summary was made: it belongs to this node's branch. */
  node_id: Id,
  /** The newest turn folded in; the turns after it stay word for word. */
  covered_node_id: Id,
  /** How many turns of the path it covers. */
  turns: z.number().int().nonnegative(),
  /** How many turns the path had at `node_id` when it was made (the rest stayed word for word). */
  path_turns: z.number().int().nonnegative(),
  text: z.string(),
  created_at: z.string(),
})
export type StorySummary = z.infer<typeof StorySummary>

export const StorySave = z.object({
  id: z.number().int(),
  story_id: Id,
  node_id: Id,
  name: z.string(),
  created_at: z.string(),
  /** The start of the reply saved at, for the load list. */
  preview: z.string(),
  /** Turns from the opening scene to the saved node. */
  turn: z.number().int().nonnegative(),
})
export type StorySave = z.infer<typeof StorySave>

export const SheetVersionReason = z.enum(['summary', 'user', 'revert', 'generated'])
export const SheetVersionStatus = z.enum(['unreviewed', 'accepted', 'reverted', 'refused'])

/** One change of a character sheet: what it was, what it became, and why. Nothing changes without one. */
export const SheetVersion = z.object({
  id: z.number().int(),
  story_id: Id,
  path: z.string(),
  reason: SheetVersionReason,
  status: SheetVersionStatus,
  /** Null for a sheet that did not exist before. */
  before: z.string().nullable(),
  after: z.string(),
  /** Why a model's answer was refused, or what the user noted. */
  note: z.string(),
  /** The node whose summary prompted the change, if any. */
  node_id: Id.nullable(),
  created_at: z.string(),
})
export type SheetVersion = z.infer<typeof SheetVersion>

export const storyMethods = {
  /** Creates `scenarios/<name>/` with the seed's layout from a template, its game-master persona and its flow. */
  story_init: {
    input: z
      .object({
        name: StoryName,
        template: StoryTemplate.default('blank'),
        /** The templates' language; the UI's by default. */
        language: z.enum(['ja', 'en']).optional(),
        /** Play with an existing persona (and its memory) instead of a new game master. */
        persona_id: z.string().optional(),
      })
      .strict(),
    output: Story,
  },
  story_list: { input: z.object({}).strict(), output: z.array(Story) },
  /** The story, its scenario files and the story so far where play stands. */
  story_get: {
    input: z.object({ story_id: Id }).strict(),
    output: z.object({ story: Story, files: z.array(StoryFile), summary: StorySummary.nullable() }),
  },
  story_read_file: {
    input: z.object({ story_id: Id, path: StoryPath }).strict(),
    output: z.object({ path: z.string(), content: z.string(), hash: z.string() }),
  },
  /**
   * Writes a scenario file. `base_hash` is the hash the editor started from (null for a new file);
   * when the file changed since (edited outside the app), nothing is written and the answer is
   * `conflict`, so the user decides which words stay.
   */
  story_update_file: {
    input: z
      .object({ story_id: Id, path: StoryPath, content: z.string().max(1_000_000), base_hash: z.string().nullable() })
      .strict(),
    output: StoryFile,
  },
  /** An IF route: a new project with a copy of `scenario/`; from a node, it starts where the original stood there. */
  story_fork: {
    input: z.object({ story_id: Id, name: StoryName, from_node_id: Id.optional() }).strict(),
    output: Story,
  },
  /**
   * A player's turn, answered by the game master in the story's own conversation: below
   * `parent_id` (a node of the story's flow), else below where play stands. `flow_id` is the
   * conversation the window shows the story in; a turn for any other is refused and nothing is
   * sent. A turn carries no pictures: what the graph's composer holds stays there.
   */
  story_send: {
    input: z
      .object({ story_id: Id, flow_id: Id, prompt: z.string().min(1).max(2_000_000), parent_id: Id.optional() })
      .strict(),
    output: z.object({ node_id: Id }),
  },
  /** Where play stands (the canvas or the reading view chose a node): the autosave follows it. */
  story_set_position: { input: z.object({ story_id: Id, node_id: Id }).strict(), output: Story },
  story_save: {
    input: z.object({ story_id: Id, node_id: Id, name: z.string().trim().min(1).max(200) }).strict(),
    output: StorySave,
  },
  story_saves: { input: z.object({ story_id: Id }).strict(), output: z.array(StorySave) },
  story_load: { input: z.object({ story_id: Id, save_id: z.number().int() }).strict(), output: Story },
  /** Steps back one player turn and its reply; the turn stays in the graph as a branch. */
  story_undo: { input: z.object({ story_id: Id }).strict(), output: Story },
  story_redo: { input: z.object({ story_id: Id }).strict(), output: Story },
  /** The story so far that holds at a node (the newest summary on its path), or null. */
  story_summary: {
    input: z.object({ story_id: Id, node_id: Id }).strict(),
    output: StorySummary.nullable(),
  },
  /** Folds the path up to a node into the story so far now, without waiting for the trigger. */
  story_summarize: {
    input: z.object({ story_id: Id, node_id: Id }).strict(),
    output: z.object({ queued: z.boolean() }),
  },
  story_sheet_versions: {
    input: z.object({ story_id: Id, path: StoryPath.optional() }).strict(),
    output: z.array(SheetVersion),
  },
  /** Accepts a change as it is, or reverts it (the sheet gets its words back as a new version). */
  story_sheet_review: {
    input: z.object({ story_id: Id, version_id: z.number().int(), action: z.enum(['accept', 'revert']) }).strict(),
    output: SheetVersion,
  },
  /** Writes a new character sheet from the log for a name the user chose (a background job). */
  story_generate_character: {
    input: z.object({ story_id: Id, name: z.string().trim().min(1).max(100), node_id: Id.optional() }).strict(),
    output: z.object({ queued: z.boolean(), path: z.string() }),
  },
} as const satisfies MethodSpecs

export const storyEvents = {
  /** A story changed: where play stands, its summary, its sheets. */
  story_updated: z.object({ story: Story }),
  /** A scenario file changed, in the app or outside it (`external`): an open editor checks its base. */
  story_file_changed: z.object({
    story_id: Id,
    path: z.string(),
    hash: z.string(),
    source: z.enum(['app', 'external']),
  }),
  story_sheet_changed: z.object({ story_id: Id, version: SheetVersion }),
} as const satisfies EventSpecs
