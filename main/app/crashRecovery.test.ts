import { describe, expect, it } from 'vitest'
import {
  CrashCounter,
  QUIT,
  RELOAD,
  childCrashNeedsNotice,
  goneLogLine,
  isCrash,
  rendererCrashDialog,
} from './crashRecovery'

describe('crash recovery', () => {
  it('offers Reload (default) or Quit when the page dies, naming the reason and the log folder', () => {
    const dialog = rendererCrashDialog({ reason: 'crashed', exitCode: 139 }, '/logs')
    expect(dialog.buttons[RELOAD]).toBe('Reload')
    expect(dialog.buttons[QUIT]).toBe('Quit')
    expect(dialog.defaultId).toBe(RELOAD)
    expect(dialog.detail).toContain('crashed (exit code 139)')
    expect(dialog.detail).toContain('/logs')
    expect(rendererCrashDialog({ reason: 'oom', exitCode: 0 }, '/logs').message).toContain('out of memory')
  })

  it('does not treat a clean exit as a crash', () => {
    expect(isCrash({ reason: 'clean-exit', exitCode: 0 })).toBe(false)
    expect(isCrash({ reason: 'killed', exitCode: 9 })).toBe(true)
  })

  it("logs every dead child process but bothers the user only for ones that aren't Chromium's own", () => {
    expect(goneLogLine('Utility', { reason: 'crashed', exitCode: 1, name: 'Network Service' })).toBe(
      'Utility (Network Service) gone: crashed, exit code 1',
    )
    expect(childCrashNeedsNotice({ type: 'GPU', reason: 'crashed', exitCode: 1 })).toBe(false)
    expect(childCrashNeedsNotice({ type: 'Utility', reason: 'crashed', exitCode: 1 })).toBe(false)
    expect(childCrashNeedsNotice({ type: 'Pepper Plugin', reason: 'crashed', exitCode: 1 })).toBe(true)
    expect(childCrashNeedsNotice({ type: 'Pepper Plugin', reason: 'clean-exit', exitCode: 0 })).toBe(false)
  })

  it('notices crashes repeating within a minute so reloading does not loop', () => {
    const counter = new CrashCounter(3, 60_000)
    expect(counter.record(0)).toBe(false)
    expect(counter.record(10_000)).toBe(false)
    expect(counter.record(20_000)).toBe(true)
    expect(counter.record(200_000)).toBe(false)
  })
})
