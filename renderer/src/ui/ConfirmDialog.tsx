import { useTranslation } from 'react-i18next'
import { Dialog } from './Dialog'

/** "Really do this?" for a destructive action: Cancel, or the named action (which closes first). */
export function ConfirmDialog({
  title,
  body,
  action,
  onConfirm,
  onClose,
}: {
  title: string
  body: string
  action: string
  onConfirm: () => void
  onClose: () => void
}) {
  const { t } = useTranslation()
  return (
    <Dialog title={title} onClose={onClose}>
      <p>{body}</p>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="danger primary"
          onClick={() => {
            onClose()
            onConfirm()
          }}
        >
          {action}
        </button>
      </div>
    </Dialog>
  )
}
