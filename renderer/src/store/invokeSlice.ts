import type { StateCreator } from 'zustand'
import type { In, Method, Out } from '@shared/contract'
import type { Client } from '../bridge'
import { errorText } from './errorText'
import type { App } from './index'

/** The one way slices and components ask the main process for an answer. */
export interface InvokeSlice {
  /** Calls the main process for a one-off answer; a failure shows as a toast and gives null. */
  invoke<M extends Method>(method: M, input: In<M>): Promise<Out<M> | null>
}

/** A failure becomes a toast and null, so actions never throw into React. */
export const invokeSlice =
  (client: Client): StateCreator<App, [], [], InvokeSlice> =>
  (_set, get) => ({
    async invoke(method, input) {
      const result = await client.invoke(method, input)
      if (result.ok) return result.value
      get().toast('error', errorText(result.error))
      return null
    },
  })
