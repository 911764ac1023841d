import { existsSync, readdirSync, rmSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { leaveInstanceFile } from '../../tests/support/crashLeftovers'
import { useTempHome } from '../../tests/support/tempHome'
import { registerInstance } from './instances'

const home = useTempHome()

describe('instances sharing a data home', () => {
  it('is alone on a fresh home, and its file goes on release', () => {
    const me = registerInstance(join(home(), 'run'))
    expect(me.alone).toBe(true)
    expect(readdirSync(join(home(), 'run'))).toHaveLength(1)
    me.release()
    expect(readdirSync(join(home(), 'run'))).toEqual([])
  })

  it('forgets a crashed process (its pid is gone) and counts itself alone', () => {
    const crashed = leaveInstanceFile(home())
    const me = registerInstance(join(home(), 'run'))
    expect(me.alone).toBe(true)
    expect(existsSync(crashed)).toBe(false)
    me.release()
  })

  it('is not alone beside a live process, or a second core in this process', () => {
    const other = leaveInstanceFile(home(), process.ppid)
    const me = registerInstance(join(home(), 'run'))
    expect(me.alone).toBe(false)
    expect(existsSync(other)).toBe(true)
    me.release()

    rmSync(other)
    const first = registerInstance(join(home(), 'run'))
    const second = registerInstance(join(home(), 'run'))
    expect([first.alone, second.alone]).toEqual([true, false])
    first.release()
    second.release()
  })

  it('treats a file untouched for ten minutes as gone even if its pid is in use again', () => {
    const old = leaveInstanceFile(home(), process.ppid)
    const longAgo = new Date(Date.now() - 11 * 60_000)
    utimesSync(old, longAgo, longAgo)
    const me = registerInstance(join(home(), 'run'))
    expect(me.alone).toBe(true)
    expect(existsSync(old)).toBe(false)
    me.release()
  })
})
