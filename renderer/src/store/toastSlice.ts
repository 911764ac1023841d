import type { StateCreator } from 'zustand'
import type { App } from './index'

export interface Toast {
  id: number
  kind: 'info' | 'error'
  message: string
}

export interface ToastSlice {
  toasts: Toast[]
  toast(kind: Toast['kind'], message: string): void
  dismissToast(id: number): void
}

let next = 1
const VISIBLE_MS = 6000

export const toastSlice: StateCreator<App, [], [], ToastSlice> = (set, get) => ({
  toasts: [],
  toast(kind, message) {
    const id = next++
    set((s) => ({ toasts: [...s.toasts.slice(-4), { id, kind, message }] }))
    setTimeout(() => get().dismissToast(id), VISIBLE_MS)
  },
  dismissToast(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }))
  },
})
