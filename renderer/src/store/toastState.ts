// What the toast slice holds and offers (its implementation: toastSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

/** One button on a toast ("Undo"): it runs, and the toast goes. */
export interface ToastAction {
  label: string
  run(): void
}

export interface Toast {
  id: number
  kind: 'info' | 'error'
  message: string
  action?: ToastAction
}

export interface ToastSlice {
  toasts: Toast[]
  toast(kind: Toast['kind'], message: string, action?: ToastAction): void
  dismissToast(id: number): void
}
