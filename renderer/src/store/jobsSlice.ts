import type { StateCreator } from 'zustand'
import type { App } from './app'
import type { JobsSlice } from './jobsState'

export const jobsSlice: StateCreator<App, [], [], JobsSlice> = (set) => ({
  jobs: {},
  applyJobProgress(progress) {
    set((state) => {
      const jobs = { ...state.jobs }
      if (progress.state === 'done') delete jobs[progress.job_id]
      else jobs[progress.job_id] = progress
      return { jobs }
    })
  },
})
