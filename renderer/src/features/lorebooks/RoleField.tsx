import { useTranslation } from 'react-i18next'
import type { AuthorsNote } from '@shared/contract'

const ROLES: readonly AuthorsNote['role'][] = ['system', 'user', 'assistant']

/** Which role a text put among the messages speaks as: an entry at a depth, or the Author's Note. */
export function RoleField({
  value,
  onChange,
}: {
  value: AuthorsNote['role']
  onChange: (role: AuthorsNote['role']) => void
}) {
  const { t } = useTranslation()
  return (
    <label className="field">
      {t('lore.role')}
      <select
        aria-label={t('lore.role')}
        value={value}
        onChange={(e) => onChange(e.target.value as AuthorsNote['role'])}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {t(`lore.roleOption.${r}`)}
          </option>
        ))}
      </select>
    </label>
  )
}
