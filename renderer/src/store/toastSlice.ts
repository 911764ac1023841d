import i18next from 'i18next'
import type { StateCreator } from 'zustand'
import type { Client } from '../bridge'
import type { App, AppStore } from './app'
import type { ToastSlice } from './toastState'

let next = 1
const VISIBLE_MS = 6000
/** A toast with a button stays longer: reaching it by keyboard takes more than reading it. */
const WITH_ACTION_MS = 12_000

export const toastSlice: StateCreator<App, [], [], ToastSlice> = (set, get) => ({
  toasts: [],
  toast(kind, message, action) {
    const id = next++
    set((s) => ({ toasts: [...s.toasts.slice(-4), { id, kind, message, ...(action ? { action } : {}) }] }))
    setTimeout(() => get().dismissToast(id), action ? WITH_ACTION_MS : VISIBLE_MS)
  },
  dismissToast(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }))
  },
})

/**
 * A persona's answer to another program (a notification, a meta request) shows as a notice
 * with its words; the exchange itself is in the persona's External conversation.
 */
export function wireExternalReplies(client: Client, store: AppStore): void {
  client.on('external_reply', (reply) => {
    const state = store.getState()
    const name = state.personas.find((p) => p.id === reply.persona_id)?.name ?? reply.persona_id
    if (reply.data.message) state.toast('info', i18next.t('programs.reply', { name, message: reply.data.message }))
    else if (reply.data.error)
      state.toast('error', i18next.t('programs.replyFailed', { name, error: reply.data.error }))
  })
}
