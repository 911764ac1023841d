import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appSchema } from '../../appSchema'
import { openDatabase } from '../../db/open'
import { useTempHome } from '../../../tests/support/tempHome'
import { BatchTallies } from './batchTallies'
import { JobQueue } from './jobQueue'

const home = useTempHome()

function queueWithCountedCounts() {
  const { db } = openDatabase(join(home(), 'loomverse.db'), { domains: appSchema, label: 'loomverse.db' })
  const queue = new JobQueue(db)
  let counts = 0
  const tallies = new BatchTallies((batch) => {
    counts++
    return queue.batchProgress(batch)
  })
  return { db, queue, tallies, counts: () => counts }
}

describe('batch progress tallies', () => {
  it('moves by one per finished job without counting the batch again', () => {
    const { db, queue, tallies, counts } = queueWithCountedCounts()
    for (let i = 0; i < 1000; i++) queue.enqueue('k', { i }, { batch: 'b' })
    expect(tallies.recount('b')).toEqual({ total: 1000, done: 0, failed: 0, started: false })
    expect(tallies.finished('b', 'retry')).toEqual({ total: 1000, done: 0, failed: 0, started: true })
    let last = null
    for (let i = 0; i < 999; i++) last = tallies.finished('b', 'done')
    expect(last).toEqual({ total: 1000, done: 999, failed: 0, started: true })
    expect(tallies.finished('b', 'dead')).toEqual({ total: 1000, done: 999, failed: 1, started: true })
    expect(counts()).toBe(1) // the table was counted once, when the batch was queued
    db.close()
  })

  it('counts a batch queued by an earlier run once, from the table that already holds the outcome', () => {
    const { db, queue, tallies, counts } = queueWithCountedCounts()
    const a = queue.enqueue('k', {}, { batch: 'old' })
    queue.enqueue('k', {}, { batch: 'old' })
    queue.claim()
    queue.complete(a)
    expect(tallies.finished('old', 'done')).toEqual({ total: 2, done: 1, failed: 0, started: true })
    expect(tallies.finished('old', 'done')).toEqual({ total: 2, done: 2, failed: 0, started: true })
    expect(counts()).toBe(1)
    db.close()
  })
})
