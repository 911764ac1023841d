import type { StateCreator } from 'zustand'
import type { App } from './app'
import type { ModalSlice } from './modalState'

export const modalSlice: StateCreator<App, [], [], ModalSlice> = (set) => ({
  modal: null,
  openModal: (modal) => set({ modal }),
  closeModal: () => set({ modal: null }),
})
