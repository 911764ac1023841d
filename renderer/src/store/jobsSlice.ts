import type { StateCreator } from 'zustand'
import type { JobProgress } from '@shared/contract'
import type { App } from './index'

export interface JobsSlice {
  /** Jobs still running or recently failed, by id. Finished ones drop out. */
  jobs: Record<string, JobProgress>
  applyJobProgress(progress: JobProgress): void
}

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
