import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { BuildingKind, BuildingView } from '@shared/contract'
import { Pencil, Trash2 } from 'lucide-react'
import { useApp } from '../../store'
import { IconButton } from '../../ui/Button'

const kinds: BuildingKind[] = ['room', 'museum', 'library', 'other']

/** Every building: click to go there; rename and delete in place; a form to add one. */
export function BuildingList() {
  const { t } = useTranslation()
  const buildings = useApp((s) => s.world?.buildings ?? [])
  return (
    <div className="world-buildings">
      <ul className="building-list" aria-label={t('world.buildings')}>
        {buildings.map((b) => (
          <BuildingRow key={b.id} building={b} />
        ))}
      </ul>
      <NewBuilding />
    </div>
  )
}

function BuildingRow({ building }: { building: BuildingView }) {
  const { t } = useTranslation()
  const moveUser = useApp((s) => s.moveUser)
  const rename = useApp((s) => s.renameBuilding)
  const remove = useApp((s) => s.deleteBuilding)
  const [editing, setEditing] = useState<string | null>(null)
  const submit = () => {
    const name = editing?.trim()
    setEditing(null)
    if (name && name !== building.name) void rename(building.id, name)
  }
  return (
    <li className={`building${building.user_here ? ' here' : ''}`} data-building-id={building.id}>
      {editing === null ? (
        <button
          type="button"
          className="building-name"
          aria-current={building.user_here ? 'location' : undefined}
          title={building.description}
          onClick={() => void moveUser(building.id)}
        >
          <span>{building.name}</span>
          <span className="building-count">{t('world.itemCount', { count: building.item_count })}</span>
        </button>
      ) : (
        <input
          aria-label={t('world.buildingName')}
          value={editing}
          autoFocus
          onChange={(e) => setEditing(e.target.value)}
          onBlur={submit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') submit()
            if (e.key === 'Escape') setEditing(null)
          }}
        />
      )}
      {building.user_here && <span className="badge">{t('world.youAreHere')}</span>}
      {building.personas.length > 0 && (
        <span className="building-personas">{building.personas.map((p) => p.name).join(', ')}</span>
      )}
      <span className="building-actions">
        <IconButton
          size="sm"
          icon={Pencil}
          label={t('world.rename', { name: building.name })}
          onClick={() => setEditing(building.name)}
        />
        <IconButton
          size="sm"
          icon={Trash2}
          label={t('world.delete', { name: building.name })}
          onClick={() => {
            if (window.confirm(t('world.deleteConfirm', { name: building.name }))) void remove(building.id)
          }}
        />
      </span>
    </li>
  )
}

function NewBuilding() {
  const { t } = useTranslation()
  const create = useApp((s) => s.createBuilding)
  const [name, setName] = useState('')
  const [kind, setKind] = useState<BuildingKind>('room')
  return (
    <form
      className="new-building"
      onSubmit={(e) => {
        e.preventDefault()
        if (!name.trim()) return
        void create(name.trim(), kind)
        setName('')
      }}
    >
      <input
        aria-label={t('world.newBuildingName')}
        placeholder={t('world.newBuildingName')}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <select aria-label={t('world.kind')} value={kind} onChange={(e) => setKind(e.target.value as BuildingKind)}>
        {kinds.map((k) => (
          <option key={k} value={k}>
            {t(`world.kinds.${k}`)}
          </option>
        ))}
      </select>
      <button type="submit" disabled={!name.trim()}>
        {t('world.add')}
      </button>
    </form>
  )
}
