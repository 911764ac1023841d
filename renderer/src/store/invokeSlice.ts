import type { StateCreator } from 'zustand'
import type { Client } from '../bridge'
import { errorText } from './errorText'
import type { App } from './app'
import type { InvokeSlice } from './invokeState'

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
