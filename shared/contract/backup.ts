import { z } from 'zod'
import type { EventSpecs, MethodSpecs } from './spec'

// Backups of the whole data folder (issue 37): a consistent copy taken while the app runs, each
// verified by opening it, on demand and on a schedule with retention, and restores into a fresh
// data folder. Folders are typed paths (browser mode has no native picker); the main process
// checks them: absolute, not a link, never inside the data folder.

/** An absolute folder path as typed; the main process resolves and checks it. */
const FolderPath = z.string().trim().min(1).max(4096)

export const BackupInterval = z.enum(['off', 'daily', 'weekly'])
export type BackupInterval = z.infer<typeof BackupInterval>

export const BackupSettings = z.object({
  /** Where backups go; null until the user picks one. */
  folder: FolderPath.nullable(),
  /** How often a scheduled backup runs; `off` runs only when asked. */
  interval: BackupInterval,
  /** Complete backups kept in the folder; older ones go once a newer one is verified. */
  keep: z.number().int().min(1).max(100),
})
export type BackupSettings = z.infer<typeof BackupSettings>

export const BackupSettingsPatch = BackupSettings.partial().strict()
export type BackupSettingsPatch = z.infer<typeof BackupSettingsPatch>

/** A file the backup or restore could not take, relative to the data folder, and why. */
export const BackupProblem = z.object({ path: z.string(), reason: z.string() })
export type BackupProblem = z.infer<typeof BackupProblem>

/** How one backup went. A failed one left nothing that looks complete. */
export const BackupResult = z.object({
  ok: z.boolean(),
  trigger: z.enum(['manual', 'schedule']),
  started_at: z.string(),
  finished_at: z.string(),
  /** The verified backup's folder; null when it failed. */
  path: z.string().nullable(),
  databases: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** Links and special files left out (a backup never follows a link). */
  skipped: z.array(BackupProblem),
  /** Older backups deleted by retention after this one was verified. */
  removed: z.array(z.string()),
  error: z.string().nullable(),
})
export type BackupResult = z.infer<typeof BackupResult>

/** A complete backup found in the folder. */
export const BackupEntry = z.object({
  path: z.string(),
  name: z.string(),
  created_at: z.string(),
  app_version: z.string(),
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
})
export type BackupEntry = z.infer<typeof BackupEntry>

export const BackupStatus = z.object({
  settings: BackupSettings,
  running: z.boolean(),
  last: BackupResult.nullable(),
  /** When the schedule takes the next one; null when the schedule is off or has no folder. */
  next_due_at: z.string().nullable(),
  /** Complete backups in the folder, newest first. */
  backups: z.array(BackupEntry),
  /** A problem reading the folder (gone, not a folder); the list is then empty. */
  folder_error: z.string().nullable(),
})
export type BackupStatus = z.infer<typeof BackupStatus>

export const BackupVerifyReport = z.object({
  ok: z.boolean(),
  backup: z.string(),
  /** Entries of the manifest that passed: size, sha256 and, for databases, integrity_check. */
  checked: z.array(z.string()),
  failed: z.array(BackupProblem),
})
export type BackupVerifyReport = z.infer<typeof BackupVerifyReport>

export const RestoreReport = z.object({
  /** True when every entry of the backup was verified and restored. */
  ok: z.boolean(),
  backup: z.string(),
  /** The new data folder; open it with `loomverse serve --home` or LOOMVERSE_HOME. */
  home: z.string(),
  restored: z.array(z.string()),
  /** Entries that failed verification and were not restored. */
  failed: z.array(BackupProblem),
})
export type RestoreReport = z.infer<typeof RestoreReport>

export const backupMethods = {
  /** Settings, the last backup's outcome, the next scheduled time and the backups in the folder. */
  backup_status: { input: z.object({}).strict(), output: BackupStatus },
  /** Checks the folder (absolute, not a link, not inside the data folder) before saving anything. */
  backup_update_settings: { input: BackupSettingsPatch, output: BackupSettings },
  /**
   * Backs up now into `folder` (default: the settings' folder) and answers when it is verified
   * or has failed; progress arrives as `job_progress` (job id `backup`), the end as `backup_finished`.
   */
  backup_run: { input: z.object({ folder: FolderPath.optional() }).strict(), output: BackupResult },
  /** Opens a backup and checks every entry against its manifest. */
  backup_verify: { input: z.object({ backup: FolderPath }).strict(), output: BackupVerifyReport },
  /** Restores a backup into `to`, a folder that does not exist yet (never the live data folder). */
  backup_restore: { input: z.object({ backup: FolderPath, to: FolderPath }).strict(), output: RestoreReport },
} as const satisfies MethodSpecs

/**
 * How backups show in the status bar (`job_progress`): one job id, so a later success clears an
 * earlier failure, and a window opened after a failure shows it from `backup_status`.
 */
export const BACKUP_JOB = { job_id: 'backup', label: 'Backup' } as const

export const backupEvents = {
  backup_finished: BackupResult,
} as const satisfies EventSpecs
