/**
 * What the shell does when a renderer or a helper process dies. Electron reports these with
 * `render-process-gone` and `child-process-gone`; this module decides, the shell only wires
 * the events and shows the dialog.
 */

/** The part of Electron's RenderProcessGoneDetails / Details this needs. */
export interface GoneDetails {
  reason: string
  exitCode: number
  type?: string
  name?: string
}

export interface CrashDialog {
  title: string
  message: string
  detail: string
  buttons: string[]
  defaultId: number
  cancelId: number
}

/** Buttons of the renderer-crash dialog, in order. */
export const RELOAD = 0
export const QUIT = 1

/** A clean exit (the window was closed, the app quits) is not a crash. */
export function isCrash(details: GoneDetails): boolean {
  return details.reason !== 'clean-exit'
}

/** The log line for a dead process: kind, reason, exit code. */
export function goneLogLine(kind: string, details: GoneDetails): string {
  const what = details.name ? `${kind} (${details.name})` : kind
  return `${what} gone: ${details.reason}, exit code ${details.exitCode}`
}

/** The dialog offered when the window's page died: reload it, or quit. */
export function rendererCrashDialog(details: GoneDetails, logFolder: string): CrashDialog {
  const oom = details.reason === 'oom'
  return {
    title: 'Loomverse',
    message: oom ? 'The window ran out of memory and stopped.' : 'The window stopped unexpectedly.',
    detail:
      `Your work is saved in the database. Reload to continue.\n\n` +
      `Reason: ${details.reason} (exit code ${details.exitCode}). Logs: ${logFolder}`,
    buttons: ['Reload', 'Quit'],
    defaultId: RELOAD,
    cancelId: RELOAD,
  }
}

/**
 * Child processes that matter: the GPU process restarts itself and utility processes are
 * Chromium's, so they are only logged; none of them takes the app down.
 */
export function childCrashNeedsNotice(details: GoneDetails): boolean {
  return isCrash(details) && details.type !== 'GPU' && details.type !== 'Utility'
}

/**
 * Repeated crashes right after reloading would loop; after `limit` crashes within `windowMs`
 * the dialog offers Quit as the default instead.
 */
export class CrashCounter {
  private readonly times: number[] = []

  constructor(
    private readonly limit = 3,
    private readonly windowMs = 60_000,
  ) {}

  /** Records a crash at `now` and tells whether crashes are repeating. */
  record(now: number): boolean {
    this.times.push(now)
    while (this.times.length && now - (this.times[0] ?? now) > this.windowMs) this.times.shift()
    return this.times.length >= this.limit
  }
}
