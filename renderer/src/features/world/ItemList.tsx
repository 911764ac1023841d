import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import { GeneratePicture } from './GeneratePicture'
import { ItemIcon } from './ItemIcon'
import { NewItem } from './NewItem'
import { TrashList } from './TrashList'

/** What the user's building holds: type icon, name, summary; click to open. Below, what was deleted. */
export function ItemList() {
  const { t } = useTranslation()
  const items = useApp((s) => s.hereItems)
  const here = useApp((s) => s.world?.buildings.find((b) => b.user_here)?.name ?? '')
  const openItem = useApp((s) => s.openItem)
  return (
    <section className="world-items" aria-label={t('world.itemsIn', { name: here })}>
      <h3>{t('world.itemsIn', { name: here })}</h3>
      {items.length === 0 ? (
        <p className="empty">{t('world.noItems')}</p>
      ) : (
        <ul className="item-list">
          {items.map((item) => (
            <li key={item.id} data-item-id={item.id} data-item-type={item.type}>
              <button type="button" className="item-button" onClick={() => openItem(item.id)}>
                <ItemIcon type={item.type} label={t(`world.type.${item.type}`)} />
                <span className="item-name">{item.name}</span>
              </button>
              <p className="item-summary-line">
                {/* The user's words as they wrote them, then the automatic summary beside them. */}
                {[item.description, item.summary].filter(Boolean).join(' — ')}
                {item.summary_status === 'pending' && <span className="item-pending"> {t('world.summarising')}</span>}
              </p>
            </li>
          ))}
        </ul>
      )}
      <p className="hint">{t('world.dropHint')}</p>
      <NewItem />
      <GeneratePicture />
      <TrashList />
    </section>
  )
}
