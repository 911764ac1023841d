import type { memoryMethods } from '@shared/contract'
import type { HandlerModule } from '../kernel/router'
import { sensitivityValue, UnitState } from './store/enums'
import { listJobs } from './jobs/jobList'
import type { Memory, MemoryDeps } from './memory'
import { unitReach } from './pack/reach'

/** The memory methods of the contract, each answered by the memory service or its requests from other programs. */
export function memoryHandlers(
  { service, requests }: Pick<Memory, 'service' | 'requests'>,
  deps: Pick<MemoryDeps, 'graph' | 'personas'>,
): HandlerModule<typeof memoryMethods> {
  return {
    memory_notify: (i) => requests.receive({ ...i, type: 'notification' }),
    memory_meta_request: (i) =>
      requests.receive({ ...i, persona_id: i.persona_id ?? i.memory_id, type: 'meta_request' }),
    memory_pack: (i) => service.pack(i),
    memory_import: (i, ctx) => service.importFile(i, ctx),
    memory_list_units: (i) => service.listUnits(i),
    memory_get_unit: (i) => service.detail(i.persona_id, i.unit_id),
    memory_add_unit: (i) => service.addUnit(i),
    memory_edit_unit: (i) => service.editUnit(i),
    memory_pin_unit: (i) => service.setMeta(i.persona_id, i.unit_id, { pin: i.pin }, i.pin ? 'pinned' : 'unpinned'),
    memory_archive_unit: (i) =>
      service.setMeta(
        i.persona_id,
        i.unit_id,
        { state: i.archived ? UnitState.ARCHIVED : UnitState.VALIDATED },
        i.archived ? 'archived' : 'unarchived',
      ),
    memory_set_sensitivity: (i) =>
      service.setMeta(
        i.persona_id,
        i.unit_id,
        { sensitivity: sensitivityValue(i.sensitivity) },
        `sensitivity ${i.sensitivity}`,
      ),
    memory_set_global: (i) =>
      service.setMeta(
        i.persona_id,
        i.unit_id,
        { is_global: i.global },
        i.global ? 'promoted to global' : 'made branch-local',
      ),
    memory_delete_unit: (i) => service.deleteUnit(i.persona_id, i.unit_id),
    memory_unit_reach: (i) =>
      unitReach(deps.graph, deps.personas.get(i.persona_id), service.store(i.persona_id), i.unit_id),
    memory_list_entities: (i) => service.entities(i.persona_id, i.query),
    memory_packs_for_node: (i) => service.packsForNode(i.persona_id, i.node_id),
    memory_status: (i) => service.status(i.persona_id),
    memory_set_paused: (i) => service.setPaused(i.persona_id, i.paused, i.retry_failed ?? false),
    memory_set_budget: (i) => service.setBudget(i.persona_id, i.daily_tokens),
    memory_reindex: (i) => service.reindex(i.persona_id),
    memory_list_jobs: (i) => ({ jobs: listJobs(service.store(i.persona_id).db, i.status, i.limit) }),
    memory_retry_jobs: (i) => service.retryJobs(i.persona_id, i.job_ids),
  }
}
