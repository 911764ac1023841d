import { describe, expect, it } from 'vitest'
import { anchorTold, toldTimes } from './toldTime'

// Days told relatively are placed by the time they were said.

/** Monday 8 May 2023, 13:56 UTC. */
const SAID = Date.UTC(2023, 4, 8, 13, 56) / 1000
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000

describe('days told relatively', () => {
  it('are placed by the day they were said', () => {
    expect(toldTimes('Yesterday I ran my first half marathon.', SAID)).toMatchObject([
      { text: 'Yesterday', from: day('2023-05-07'), to: day('2023-05-08'), relative: true },
    ])
    expect(toldTimes('Last Saturday we went camping.', SAID)).toMatchObject([{ from: day('2023-05-06') }])
    expect(toldTimes('Two weeks ago I moved.', SAID)).toMatchObject([{ from: day('2023-04-24') }])
    // A week, a month, a year: the stretch they name.
    expect(toldTimes('Last week was busy.', SAID)).toMatchObject([{ from: day('2023-05-01'), to: day('2023-05-08') }])
    expect(toldTimes('Last month I quit.', SAID)).toMatchObject([{ from: day('2023-04-01'), to: day('2023-05-01') }])
  })

  it('tells a written-out date from a relative one, and a time of day from a day', () => {
    expect(toldTimes('On 17 February 2023 I flew.', SAID)).toMatchObject([{ from: day('2023-02-17'), relative: false }])
    expect(toldTimes('I love my 7 am runs.', SAID)).toEqual([])
    expect(toldTimes('What did we say last time?', SAID)).toEqual([])
  })

  it('get their date written beside them in what the pack lists', () => {
    expect(anchorTold('Yesterday I ran, and last Saturday we swam.', SAID)).toBe(
      'Yesterday (2023-05-07) I ran, and last Saturday (2023-05-06) we swam.',
    )
    expect(anchorTold('On 17 February 2023 I flew.', SAID)).toBe('On 17 February 2023 I flew.')
    expect(anchorTold('Yesterday I ran.', null)).toBe('Yesterday I ran.')
  })
})
