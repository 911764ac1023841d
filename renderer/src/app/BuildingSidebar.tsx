import { useTranslation } from 'react-i18next'
import { useApp } from '../store'
import { BuildingList } from '../features/world/BuildingList'
import { ItemList } from '../features/world/ItemList'

/** The world beside the graph: buildings, who is where, and what the user's building holds. */
export function BuildingSidebar() {
  const { t } = useTranslation()
  const world = useApp((s) => s.world)
  return (
    <section className="building-sidebar" aria-label={t('sidebar.title')}>
      <h2>{t('sidebar.title')}</h2>
      {world && world.buildings.length > 0 ? <BuildingList /> : <p className="empty">{t('sidebar.empty')}</p>}
      {world?.user_building_id && <ItemList />}
    </section>
  )
}
