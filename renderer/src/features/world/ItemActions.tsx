import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Item } from '@shared/contract'
import { useApp } from '../../store'
import { ConfirmDialog } from '../../ui/ConfirmDialog'

/** The item modal's housekeeping: carry the item to another building, or delete it (after asking). */
export function ItemActions({ item, onDelete }: { item: Item; onDelete: () => void }) {
  const { t } = useTranslation()
  return (
    <div className="item-actions">
      <MoveItem item={item} />
      <button type="button" className="danger" onClick={onDelete}>
        {t('world.deleteItem.button')}
      </button>
    </div>
  )
}

function MoveItem({ item }: { item: Item }) {
  const { t } = useTranslation()
  const buildings = useApp((s) => s.world?.buildings)
  const moveItem = useApp((s) => s.moveItem)
  const [target, setTarget] = useState('')
  const others = (buildings ?? []).filter((b) => !(item.owner?.kind === 'building' && item.owner.id === b.id))
  if (others.length === 0) return null
  // A building chosen earlier may have been deleted meanwhile: fall back to the first one left.
  const chosen = others.some((b) => b.id === target) ? target : others[0]!.id
  return (
    <form
      className="item-move"
      onSubmit={(e) => {
        e.preventDefault()
        void moveItem(item.id, chosen)
      }}
    >
      <label>
        <span>{t('world.moveItem.label')}</span>
        <select value={chosen} onChange={(e) => setTarget(e.target.value)}>
          {others.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">{t('world.moveItem.go')}</button>
    </form>
  )
}

/** "Really delete?" in place of the item's modal; the files go to the trash folder, which the toast names. */
export function DeleteItemConfirm({ item, onClose }: { item: Item; onClose: () => void }) {
  const { t } = useTranslation()
  const deleteItem = useApp((s) => s.deleteItem)
  const openItem = useApp((s) => s.openItem)
  return (
    <ConfirmDialog
      title={t('world.deleteItem.title', { name: item.name })}
      body={t('world.deleteItem.body', { name: item.name })}
      action={t('world.deleteItem.action')}
      onConfirm={() => {
        openItem(null)
        void deleteItem(item.id)
      }}
      onClose={onClose}
    />
  )
}
