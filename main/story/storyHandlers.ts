import type { storyMethods } from '@shared/contract'
import type { ChatService } from '../chat/chatService'
import type { HandlerModule } from '../kernel/router'
import type { ScenarioWatcher } from './scenarioWatcher'
import type { StoryMemory } from './storyMemory'
import type { StoryService } from './storyService'

export function storyHandlers(
  stories: StoryService,
  memory: StoryMemory,
  watcher: ScenarioWatcher,
  chat: ChatService,
): HandlerModule<typeof storyMethods> {
  return {
    story_init: (i) => stories.init(i),
    story_list: () => stories.list(),
    story_get: (i) => {
      const got = stories.get(i.story_id)
      watcher.watch(i.story_id)
      return got
    },
    story_read_file: (i) => stories.readFile(i),
    story_update_file: (i) => stories.updateFile(i),
    story_fork: (i) => stories.fork(i),
    story_send: (i) => {
      const to = stories.turnTarget(i)
      return chat.send({ flow_id: to.flow_id, prompt: i.prompt, ...(to.parent_id ? { parent_id: to.parent_id } : {}) })
    },
    story_set_position: (i) => stories.setPosition(i),
    story_save: (i) => stories.save(i),
    story_saves: (i) => stories.saves(i.story_id),
    story_load: (i) => stories.load(i),
    story_undo: (i) => stories.undo(i.story_id),
    story_redo: (i) => stories.redo(i.story_id),
    story_summary: (i) => stories.summaryAt(stories.row(i.story_id), i.node_id),
    story_summarize: (i) => memory.summarize(i),
    story_sheet_versions: (i) => stories.versions(i),
    story_sheet_review: (i) => stories.review(i),
    story_generate_character: (i) => memory.generateCharacter(i),
  }
}
