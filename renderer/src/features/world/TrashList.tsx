import { useTranslation } from 'react-i18next'
import type { TrashEntry } from '@shared/contract'
import { useApp } from '../../store'
import { ItemIcon } from './ItemIcon'

/**
 * "Trash (N)", folded away under the item list: deleted items, newest first, each with when
 * it was deleted, where from, and a Restore button that puts it back.
 */
export function TrashList() {
  const { t } = useTranslation()
  const trash = useApp((s) => s.trash)
  return (
    <details className="trash-list">
      <summary>{t('world.trash.title', { count: trash.length })}</summary>
      {trash.length === 0 ? (
        <p className="empty">{t('world.trash.empty')}</p>
      ) : (
        <ul>
          {trash.map((entry) => (
            <TrashRow key={entry.trash_id} entry={entry} />
          ))}
        </ul>
      )}
    </details>
  )
}

function TrashRow({ entry }: { entry: TrashEntry }) {
  const { t, i18n } = useTranslation()
  const restore = useApp((s) => s.restoreItem)
  const when = new Date(entry.deleted_at).toLocaleString(i18n.language)
  const { name, type } = entry.item
  return (
    <li data-trash-id={entry.trash_id} data-item-type={type}>
      <ItemIcon type={type} label={t(`world.type.${type}`)} />
      <span className="item-name">{name}</span>
      <button
        type="button"
        aria-label={t('world.trash.restoreNamed', { name })}
        onClick={() => void restore(entry.trash_id)}
      >
        {t('world.trash.restore')}
      </button>
      <p className="trash-when">
        {entry.from_building_name
          ? t('world.trash.deletedFrom', { when, building: entry.from_building_name })
          : t('world.trash.deletedElsewhere', { when })}
      </p>
    </li>
  )
}
