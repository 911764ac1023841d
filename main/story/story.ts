import type { ChatService } from '../chat/chatService'
import type { JobService } from '../kernel/jobs/jobService'
import { ScenarioWatcher } from './scenarioWatcher'
import { storyHandlers } from './storyHandlers'
import { StoryMemory } from './storyMemory'
import { StoryService, type StoryDeps } from './storyService'

export interface Story {
  service: StoryService
  handlers: ReturnType<typeof storyHandlers>
  /** Where a flow's Markdown export goes and from which node: a story's own `exports/` and where play stands. */
  exportTarget(flowId: string): { dir: string; nodeId: string | null } | null
  dispose(): void
}

/**
 * Story mode, started by the core: the service, its memory jobs, its file watcher, and its part
 * of chat. With `recover` (this process is alone on the home, after start-up recovery), stories
 * a kill left standing nowhere are completed first.
 */
export function createStory(deps: StoryDeps & { jobs: JobService; chat: ChatService; recover: boolean }): Story {
  const service = new StoryService(deps)
  if (deps.recover) {
    const completed = service.completeHalfMade()
    if (completed > 0)
      deps.log(`[recovery] ${completed} half-made stor${completed === 1 ? 'y' : 'ies'} given their opening scene`)
  }
  const memory = new StoryMemory(service, deps)
  const watcher = new ScenarioWatcher(service, deps.bus)
  deps.chat.useScenes({ storyOf: (flowId) => service.storyOf(flowId) })
  const stop = deps.bus.listen((event, data) => {
    if (event === 'chat_status') {
      const status = data as { node_id: string; state: string }
      if (status.state !== 'done') return
      for (const flowId of deps.graph.flowsOfNode(status.node_id)) memory.answered(flowId, status.node_id)
    } else if (event === 'flow_changed') {
      const { flow_id: flowId } = data as { flow_id: string }
      try {
        service.flowChanged(flowId)
      } catch (e) {
        deps.log(
          `[story] could not keep play standing in flow ${flowId}: ${e instanceof Error ? e.message : String(e)}`,
        )
      }
    } else if (event === 'job_progress') {
      const progress = data as { job_id: string; state: string }
      if (progress.state === 'done' || progress.state === 'failed')
        memory.jobFinished(progress.job_id, progress.state === 'failed')
    }
  })
  return {
    service,
    handlers: storyHandlers(service, memory, watcher, deps.chat),
    exportTarget(flowId) {
      const row = service.rowOfFlow(flowId)
      return row ? { dir: service.files(row).resolve('exports'), nodeId: row.current_node_id } : null
    },
    dispose() {
      stop()
      watcher.dispose()
      deps.chat.useScenes(null)
    },
  }
}
