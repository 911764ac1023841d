import type { worldMethods } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { ChatService } from '../chat/chatService'
import type { Db } from '../db/open'
import type { GraphService } from '../graph/graphService'
import type { HomePaths } from '../kernel/home'
import type { EventBus } from '../kernel/events'
import type { Handlers } from '../kernel/router'
import type { JobService } from '../kernel/jobs/jobService'
import type { LlmRegistry } from '../llm/providers'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'
import { ensureDemoWorld } from './demoWorld'
import { routePlaybook } from './playbooks/metaRouter'
import { runWorldPlaybook } from './playbooks/worldPlaybooks'
import { worldToolProvider } from './worldToolRunner'
import { SUMMARY_BATCH, WorldService } from './worldService'

/**
 * Where a playbook's `memorize` node sends its episode. The memory engine does not exist
 * yet, so the default sink keeps nothing; the memory feature will pass its own.
 */
export type MemorySink = (episode: { persona_id: string | null; playbook: string; text: string }) => Promise<void>

export interface WorldDeps {
  db: Db
  bus: EventBus
  paths: HomePaths
  jobs: JobService
  llm: LlmRegistry
  settings: SettingsService
  graph: GraphService
  personas: PersonaService
  chat: ChatService
  env: NodeJS.ProcessEnv
  memorize?: MemorySink
  /** Where the world reports what it passed over (an unreadable trash record); stderr by default. */
  log?: (message: string) => void
}

export interface World {
  handlers: Pick<Handlers, keyof typeof worldMethods>
  dispose(): Promise<void>
}

/** The world feature: buildings, whereabouts, items. Started by the core with everything it may need. */
export function createWorld(deps: WorldDeps): World {
  const world = new WorldService(deps)
  ensureDemoWorld(world)
  const memorize: MemorySink = deps.memorize ?? (async () => {})
  const unregisterTools = deps.chat.registerTools({
    ...worldToolProvider(world, deps.personas, deps.env, deps.bus),
    // The seed's meta router in the chat: view / edit / create words run their playbook.
    async playbook(text, ctx) {
      const playbook = routePlaybook(text, { seedKeywordsOnly: true })
      if (!playbook) return null
      const run = await runWorldPlaybook(world, deps, memorize, {
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

  const user = { kind: 'user' } as const
  const handlers: World['handlers'] = {
    get_world: () => world.world(),
    list_buildings: () => world.world().buildings,
    create_building: (i) => world.createBuilding(i),
    update_building: (i) => world.updateBuilding(i),
    delete_building: (i) => world.deleteBuilding(i.id),
    move_to: (i) => world.moveTo(i),
    list_items: (i) => world.listItems(i.building_id),
    get_item: (i) => world.store.requireItem(i.item_id),
    item_view: (i) => world.view(i.item_id),
    document_create: (i) => world.documentCreate(i, i.persona_id ? { kind: 'persona', id: i.persona_id } : user),
    object_create: (i) => world.objectCreate(i),
    item_move: (i) => world.moveItem(i),
    item_delete: (i) => world.deleteItem(i.item_id),
    trash_list: () => world.trashList(),
    item_restore: (i) => world.restoreItem(i.trash_id),
    item_use: (i) => world.itemUse(i, i.persona_id ? { kind: 'persona', id: i.persona_id } : user),
    document_write: (i) => world.documentWrite(i.item_id, i.content, user),
    list_document_versions: (i) => {
      world.store.requireItem(i.item_id)
      return world.store.versions(i.item_id)
    },
    get_document_version: (i) => {
      const v = world.store.version(i.item_id, i.version)
      if (!v) throw new AppError('not_found', `document ${i.item_id} has no version ${i.version}`)
      return v
    },
    revert_document: (i) => world.revertDocument(i.item_id, i.version),
    picture_upload: (i) => world.pictureUpload(i),
    generate_image: (i) => world.generateImage(i),
    list_tool_calls: (i) => world.store.toolCallsOfFlow(i.flow_id),
    route_playbook: (i) => ({ playbook: routePlaybook(i.text) }),
    run_playbook: (i) => runWorldPlaybook(world, deps, memorize, i),
  }
  return {
    handlers,
    dispose: async () => {
      unregisterTools()
      stopListening()
      stopPersonas()
    },
  }
}
