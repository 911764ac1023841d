import { describe, expect, it } from 'vitest'
import { readTime } from './importTime'

const at = (iso: string) => Date.parse(iso) / 1000

describe('readTime', () => {
  it.each([
    ['1:10 pm on 27 March, 2023', '2023-03-27T13:10:00Z'],
    ['1:56 pm on 8 May, 2023', '2023-05-08T13:56:00Z'],
    ['12:05 am on 1 Jan, 2024', '2024-01-01T00:05:00Z'],
    ['2023-03-27 13:10', '2023-03-27T13:10:00Z'],
    ['2023-03-27T13:10:00.250+09:00', '2023-03-27T04:10:00Z'],
    ['2023-03-27T13:10:00Z', '2023-03-27T13:10:00Z'],
    ['2023-03-27', '2023-03-27T00:00:00Z'],
    ['March 27, 2023', '2023-03-27T00:00:00Z'],
    ['Sept. 3rd, 2023 9:30 PM', '2023-09-03T21:30:00Z'],
    ['27 Mar 2023 13:10', '2023-03-27T13:10:00Z'],
  ])('reads %s', (text, iso) => {
    expect(readTime(text)).toBe(at(iso))
  })

  it('reads epoch seconds and milliseconds, as numbers or digits', () => {
    expect(readTime(1679922600)).toBe(1679922600)
    expect(readTime('1679922600')).toBe(1679922600)
    expect(readTime(1679922600123)).toBe(1679922600)
    expect(readTime('1679922600123')).toBe(1679922600)
  })

  it.each([
    'someday',
    '31 April 2023',
    '13:10 pm on 27 March, 2023',
    '2023-02-30',
    'March 2023',
    'marching 27, 2023',
    '',
    -5,
  ])('refuses %s', (text) => {
    expect(readTime(text)).toBeNull()
  })
})
