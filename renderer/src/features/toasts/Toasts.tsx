import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'

export function Toasts() {
  const { t } = useTranslation()
  const toasts = useApp((s) => s.toasts)
  const dismiss = useApp((s) => s.dismissToast)
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
          <span>{toast.message}</span>
          {toast.action && (
            <button
              type="button"
              className="toast-action"
              onClick={() => {
                dismiss(toast.id)
                toast.action!.run()
              }}
            >
              {toast.action.label}
            </button>
          )}
          <button type="button" aria-label={t('common.dismiss')} onClick={() => dismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
