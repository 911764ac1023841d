import { useTranslation } from 'react-i18next'
import { Button } from './Button'
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
    <Dialog title={title} onClose={onClose} size="sm">
      <p>{body}</p>
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="danger"
          onClick={() => {
            onClose()
            onConfirm()
          }}
        >
          {action}
        </Button>
      </div>
    </Dialog>
  )
}
