import { z } from 'zod'
import type { EventSpecs, MethodSpecs } from './spec'

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** `electron` inside the desktop shell, `browser` when served by `loomverse serve`. */
  mode: z.enum(['electron', 'browser']),
  versions: z.object({
    node: z.string(),
    electron: z.string().nullable(),
    sqlite: z.string(),
    sqlite_vec: z.string(),
  }),
  platform: z.string(),
  home: z.string(),
  db: z.object({ path: z.string(), schema_version: z.number().int() }),
})
export type AppInfo = z.infer<typeof AppInfo>

/** A background job's progress, shown in the status bar. Jobs arrive with the memory engine. */
export const JobProgress = z.object({
  job_id: z.string(),
  label: z.string(),
  state: z.enum(['queued', 'running', 'done', 'failed']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  error: z.string().optional(),
})
export type JobProgress = z.infer<typeof JobProgress>

export const appMethods = {
  /** Who is answering: app version, runtime versions, data home and schema version. */
  app_info: { input: z.object({}).strict(), output: AppInfo },
  /**
   * Browser mode: a new access token for windows, kept in the data folder from now on. Windows
   * holding the old one are disconnected; the answer is the address to open. `unavailable` in
   * the desktop app, which has no token.
   */
  browser_new_token: { input: z.object({}).strict(), output: z.object({ url: z.string() }) },
} as const satisfies MethodSpecs

export const appEvents = {
  job_progress: JobProgress,
} as const satisfies EventSpecs
