import { isAbsolute, resolve } from 'node:path'
import {
  BACKUP_JOB,
  BackupResult,
  BackupSettings,
  type BackupSettingsPatch,
  type BackupStatus,
  type BackupVerifyReport,
  type RestoreReport,
} from '@shared/contract'
import { AppError } from '@shared/errors'
import type { Db } from '../db/open'
import type { EventBus } from '../kernel/events'
import type { HomePaths } from '../kernel/home'
import { isoNow } from '../kernel/time'
import { readSetting, writeSetting } from '../settings/settingRows'
import { checkOutsideHome } from './backupFolder'
import { BackupSchedule, nextDueAt } from './backupSchedule'
import { sweepBackupTemps } from './backupTemps'
import { listBackups, pruneBackups } from './retention'
import { restoreBackup } from './restoreBackup'
import { takeBackup, type TakeBackupDeps } from './takeBackup'
import { verifyBackup } from './verifyBackup'

export interface BackupDeps {
  /** The app's connection to loomverse.db: the backup copies through it, and keeps its settings there. */
  db: Db
  paths: HomePaths
  bus: EventBus
  appVersion: string
  log: (message: string) => void
  now?: () => Date
  /** Tests damage a copy before it is verified. */
  beforeVerify?: TakeBackupDeps['beforeVerify']
}

const SETTINGS_KEY = 'backup'
const LAST_KEY = 'backup_last'
const defaults: BackupSettings = { folder: null, interval: 'off', keep: 7 }
/** Progress events per backup, at most (a home of 10,000 item files is not 10,000 events). */
const PROGRESS_STEPS = 50

/**
 * Backups of the data folder: on demand, on the schedule, verified, kept to the newest N;
 * restores into a new folder. One backup runs at a time; each ends in the status bar (done,
 * or failed with the reason) and in `backup_finished`, and its outcome is kept for Settings.
 */
export class BackupService {
  private running: Promise<BackupResult> | null = null
  private sweeping: Promise<void> | null = null
  private stopping: string | null = null
  private readonly schedule: BackupSchedule
  private readonly now: () => Date

  constructor(private readonly deps: BackupDeps) {
    this.now = deps.now ?? (() => new Date())
    this.schedule = new BackupSchedule(
      () => this.runIfDue(),
      () => this.now().getTime(),
      deps.log,
    )
  }

  /**
   * Starts the schedule's timer; it looks at once whether a backup is owed. With a schedule set,
   * the half-built backups a crash left in its folder are removed now, even if none is owed.
   */
  startSchedule(): void {
    const { folder, interval } = this.settings()
    if (folder && interval !== 'off') this.sweeping = this.sweepTemps(folder)
    this.schedule.start()
  }

  settings(): BackupSettings {
    const stored = BackupSettings.safeParse(readSetting(this.deps.db, SETTINGS_KEY))
    return stored.success ? stored.data : defaults
  }

  /** Checks the folder before anything is saved: a wrong one changes nothing. */
  async updateSettings(patch: BackupSettingsPatch): Promise<BackupSettings> {
    const next = { ...this.settings(), ...patch }
    if (patch.folder) next.folder = await checkOutsideHome(patch.folder, this.deps.paths.home, 'The backup folder')
    if (next.interval !== 'off' && !next.folder)
      throw new AppError('bad_input', 'Pick a backup folder before turning on scheduled backups')
    writeSetting(this.deps.db, SETTINGS_KEY, next)
    this.schedule.wake()
    return next
  }

  lastResult(): BackupResult | null {
    const stored = BackupResult.safeParse(readSetting(this.deps.db, LAST_KEY))
    return stored.success ? stored.data : null
  }

  async status(): Promise<BackupStatus> {
    const settings = this.settings()
    const last = this.lastResult()
    let backups: BackupStatus['backups'] = []
    let folder_error: string | null = null
    if (settings.folder) {
      try {
        backups = await listBackups(settings.folder)
      } catch (e) {
        folder_error =
          (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'The folder does not exist' : (e as Error).message
      }
    }
    const due = nextDueAt(settings, newestTime(backups), last)
    return {
      settings,
      running: this.running !== null,
      last,
      next_due_at: due ? isoNow(due) : null,
      backups,
      folder_error,
    }
  }

  /**
   * Backs up into `folderTyped`, else the settings' folder. Asked by hand, a wrong folder is an
   * error that changes nothing; the schedule instead records it as a failed backup, so a
   * backup that could not run is never silent.
   */
  async run(trigger: BackupResult['trigger'], folderTyped?: string): Promise<BackupResult> {
    if (this.running)
      throw new AppError('conflict', 'A backup is already running; wait for it to finish', { key: 'backup_running' })
    if (this.stopping) throw new AppError('unavailable', this.stopping)
    const started = this.now()
    const run = this.targetFolder(folderTyped).then(
      (folder) => this.backUp(folder, trigger, started, folderTyped === undefined),
      (e: unknown) => {
        if (trigger === 'manual') throw e
        return this.finish(failed(trigger, started, this.now(), e))
      },
    )
    this.running = run
    try {
      return await run
    } finally {
      this.running = null
    }
  }

  /** For the schedule: takes a backup when one is owed; answers when the next one is. */
  async runIfDue(): Promise<Date | null> {
    const settings = this.settings()
    if (settings.interval === 'off' || !settings.folder) return null
    const newest = await listBackups(settings.folder).then(newestTime, () => null)
    const due = nextDueAt(settings, newest, this.lastResult())
    if (!due || due.getTime() > this.now().getTime() || this.running) return due
    const result = await this.run('schedule')
    return nextDueAt(this.settings(), result.ok ? new Date(Date.parse(result.started_at)) : newest, result)
  }

  async verify(backupTyped: string): Promise<BackupVerifyReport> {
    if (!isAbsolute(backupTyped))
      throw new AppError('bad_input', `The backup must be an absolute path, got "${backupTyped}"`)
    const { ok, backup, checked, failed } = await verifyBackup(resolve(backupTyped), 'full')
    return { ok, backup, checked, failed }
  }

  restore(backupTyped: string, to: string): Promise<RestoreReport> {
    return restoreBackup(backupTyped, to, this.deps.paths.home)
  }

  /** Stops the schedule and ends a running backup (removing its half-built copy) before the database closes. */
  async dispose(): Promise<void> {
    this.stopping = 'Loomverse is closing'
    await this.schedule.stop()
    await this.running?.catch(() => undefined)
    await this.sweeping
  }

  private async sweepTemps(folder: string): Promise<void> {
    const { log } = this.deps
    try {
      const removed = await sweepBackupTemps(folder)
      if (removed.length > 0)
        log(`[backup] removed ${removed.length} half-built backup(s) left by a crash in ${folder}`)
    } catch (e) {
      log(`[backup] could not clear half-built backups in ${folder}: ${(e as Error).message}`)
    }
  }

  private async targetFolder(typed: string | undefined): Promise<string> {
    const folder = typed ?? this.settings().folder
    if (!folder) throw new AppError('bad_input', 'No backup folder: pick one in Settings → Backup')
    return checkOutsideHome(folder, this.deps.paths.home, 'The backup folder')
  }

  private async backUp(folder: string, trigger: BackupResult['trigger'], started: Date, useRetention: boolean) {
    const { bus } = this.deps
    let shown = -1
    bus.emit('job_progress', { ...BACKUP_JOB, state: 'running', done: 0, total: 0 })
    try {
      const taken = await takeBackup(folder, {
        home: this.deps.paths.home,
        mainDb: this.deps.db,
        appVersion: this.deps.appVersion,
        now: () => started,
        stopped: () => this.stopping,
        beforeVerify: this.deps.beforeVerify,
        onProgress: (done, total) => {
          if (done < total && done - shown < total / PROGRESS_STEPS) return
          shown = done
          bus.emit('job_progress', { ...BACKUP_JOB, state: 'running', done, total })
        },
      })
      // Retention runs only now that a newer backup is verified, and only in the settings' folder.
      const removed = useRetention ? await pruneBackups(folder, this.settings().keep, taken.path) : []
      return this.finish({
        ok: true,
        trigger,
        started_at: isoNow(started),
        finished_at: isoNow(this.now()),
        path: taken.path,
        databases: taken.manifest.databases.length,
        files: taken.manifest.files.length,
        bytes: taken.bytes,
        skipped: taken.manifest.skipped,
        removed,
        error: null,
      })
    } catch (e) {
      return this.finish(failed(trigger, started, this.now(), e))
    }
  }

  private finish(result: BackupResult): BackupResult {
    const { bus, db, log } = this.deps
    try {
      writeSetting(db, LAST_KEY, result)
    } catch (e) {
      log(`[backup] could not record the outcome: ${(e as Error).message}`)
    }
    if (result.ok) bus.emit('job_progress', { ...BACKUP_JOB, state: 'done', done: 1, total: 1 })
    else {
      log(`[backup] failed: ${result.error}`)
      bus.emit('job_progress', {
        ...BACKUP_JOB,
        state: 'failed',
        done: 0,
        total: 0,
        error: result.error ?? '',
      })
    }
    bus.emit('backup_finished', result)
    return result
  }
}

function failed(trigger: BackupResult['trigger'], started: Date, ended: Date, e: unknown): BackupResult {
  return {
    ok: false,
    trigger,
    started_at: isoNow(started),
    finished_at: isoNow(ended),
    path: null,
    databases: 0,
    files: 0,
    bytes: 0,
    skipped: [],
    removed: [],
    error: e instanceof Error ? e.message : String(e),
  }
}

function newestTime(backups: { created_at: string }[]): Date | null {
  return backups.length > 0 ? new Date(Date.parse(backups[0]!.created_at)) : null
}
