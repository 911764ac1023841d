import type { WorldService } from './worldService'
import { userGuide } from './userGuide'

/**
 * The first-run world (seed 000's goal): a museum for pictures and a library holding
 * Loomverse's user guide, with the user standing in the library. Runs once per data folder:
 * the user_location row marks that it happened, so deleting the demo never brings it back.
 */
export function ensureDemoWorld(world: WorldService): void {
  const store = world.store
  if (store.userLocationRow() !== null) return
  if (store.buildings().length > 0) {
    // Buildings from an older tool, no user location yet: stand in the first one.
    store.setUserBuilding(store.buildings()[0]!.id)
    return
  }
  const lang = world.language()
  const ja = lang === 'ja'
  store.db
    .transaction(() => {
      store.insertBuilding({
        name: ja ? '美術館' : 'Museum',
        description: ja ? '生成した絵や持ち込んだ絵が飾られる場所。' : 'Where generated and uploaded pictures hang.',
        kind: 'museum',
      })
      const library = store.insertBuilding({
        name: ja ? '図書館' : 'Library',
        description: ja
          ? '詩や小説、日記、説明書が所蔵される場所。'
          : 'Where poems, stories, diaries and manuals are kept.',
        kind: 'library',
      })
      store.setUserBuilding(library.id)
      store.insertItem({
        type: 'object',
        name: ja ? '閲覧机' : 'Reading desk',
        description: ja
          ? '古い樫の机。本を広げるのにちょうどいい。'
          : 'An old oak desk, just right for spreading out a book.',
        filePath: null,
        state: {},
        summaryStatus: 'none',
        owner: { kind: 'building', id: library.id },
      })
      const guideText = userGuide.text(lang)
      const filePath = world.files.create('documents', 'txt', guideText)
      const guide = store.insertItem({
        type: 'document',
        name: userGuide.name[lang],
        description: userGuide.summary[lang],
        filePath,
        state: { created_by: 'system' },
        summaryStatus: 'ready',
        owner: { kind: 'building', id: library.id },
      })
      // Written by hand, so the first run makes no model call.
      world.files.writeSummary(filePath, userGuide.summary[lang])
      store.addVersion(guide.id, guideText, 'system', 'create')
    })
    .immediate()
}
