import { useTranslation } from 'react-i18next'
import { Button } from './Button'

/**
 * A dialog's foot holding only its Close button: the dialogs that save as you go (providers,
 * personas, lorebooks, backups, tools…) have nothing else to confirm.
 */
export function DialogCloseRow({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <div className="dialog-actions">
      <Button onClick={onClose}>{t('settings.close')}</Button>
    </div>
  )
}
