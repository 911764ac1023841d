import { ensureDemoWorld } from './demoWorld'
import type { WorldDeps } from './worldDeps'
import { routePlaybook } from './playbooks/metaRouter'
import { runWorldPlaybook } from './playbooks/worldPlaybooks'
import { worldToolProvider } from './worldToolRunner'
import { SUMMARY_BATCH, WorldService } from './worldService'

export interface World {
  service: WorldService
  dispose(): Promise<void>
}

/** The world feature: buildings, whereabouts, items. Started by the core with everything it may need. */
export function createWorld(deps: WorldDeps): World {
  const world = new WorldService(deps)
  ensureDemoWorld(world)
  const unregisterTools = deps.chat.registerTools({
    ...worldToolProvider(world, deps.personas, deps.env, deps.bus),
    // The seed's meta router in the chat: view / edit / create words run their playbook.
    async playbook(text, ctx) {
      const playbook = routePlaybook(text, { seedKeywordsOnly: true })
      if (!playbook) return null
      const run = await runWorldPlaybook(world, deps, deps.memorize, {
        text,
        playbook,
        persona_id: ctx.personaId ?? undefined,
      })
      return run.output || null
    },
  })
  // Summaries finish in the worker; its batch reports are the cue to show the new text.
  const stopListening = deps.bus.listen((event, data) => {
    if (event !== 'job_progress') return
    const progress = data as { job_id: string; state: string }
    if (progress.job_id.startsWith(SUMMARY_BATCH) && (progress.state === 'done' || progress.state === 'failed'))
      world.summaryFinished(progress.job_id, progress.state === 'failed')
  })
  // A persona that comes or goes changes who is in which building.
  const stopPersonas = deps.bus.listen((event) => {
    if (event === 'personas_changed') deps.bus.emit('world_changed', { world: world.world() })
  })

  return {
    service: world,
    dispose: async () => {
      unregisterTools()
      stopListening()
      stopPersonas()
    },
  }
}
