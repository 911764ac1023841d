import type { StateCreator } from 'zustand'
import type { Client } from '../bridge'
import type { App, AppStore } from './index'

/** The world's state in the renderer: buildings, where everyone is, items. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WorldSlice {}

export const worldSlice =
  (_client: Client): StateCreator<App, [], [], WorldSlice> =>
  () => ({})

/** Subscribes the store to the world's events; called once when the store is made. */
export function wireWorldEvents(_client: Client, _store: AppStore): void {}
