import type { worldMethods } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { HandlerModule } from '../kernel/router'
import { routePlaybook } from './playbooks/metaRouter'
import { runWorldPlaybook } from './playbooks/worldPlaybooks'
import type { WorldDeps } from './worldDeps'
import type { WorldService } from './worldService'

const user = { kind: 'user' } as const

export function worldHandlers(world: WorldService, deps: WorldDeps): HandlerModule<typeof worldMethods> {
  return {
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
    list_tool_calls: (i) => world.toolCallsOfFlow(i.flow_id),
    route_playbook: (i) => ({ playbook: routePlaybook(i.text) }),
    run_playbook: (i) => runWorldPlaybook(world, deps, deps.memorize, i),
  }
}
