import type { In, Story, StoryFile, StorySummary } from '@shared/contract'

// What the story slice holds and offers (its implementation: storySlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

export interface StorySlice {
  stories: Story[]
  /** The story open in the story panel; its flow is the one on the canvas. */
  story: Story | null
  storyFiles: StoryFile[]
  /** The story so far where play stands. */
  storySummary: StorySummary | null
  /** Scenario files changed outside the app since they were read, by path (their new hash). */
  storyExternal: Record<string, string>
  /** Bumped when a character sheet gets a version, so the sheets view reads them again. */
  sheetSeq: number
  loadStories(): Promise<void>
  /** Opens a story: its flow on the canvas, play resumed at its node, the story panel shown. */
  openStory(id: string): Promise<void>
  /** The story is no longer open: its panel closes (another conversation took the canvas). */
  closeStory(): void
  /**
   * A player's turn, always in the open story's own conversation: below the selected node while
   * the canvas shows that conversation, else below where play stands. It never takes the graph
   * composer's pictures or its "new root" choice. Resolves with the new node's id.
   */
  sendStoryTurn(prompt: string): Promise<string | null>
  refreshStory(): Promise<void>
  initStory(input: In<'story_init'>): Promise<Story | null>
  forkStory(input: In<'story_fork'>): Promise<Story | null>
  /** Undo, redo or load: the answer says where play stands now. */
  moveStory(call: { method: 'story_undo' | 'story_redo' } | { method: 'story_load'; saveId: number }): Promise<void>
  clearExternal(path: string): void
}
