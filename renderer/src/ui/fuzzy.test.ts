import { describe, expect, it } from 'vitest'
import { fuzzyFilter, fuzzyScore } from './fuzzy'

describe('fuzzyScore', () => {
  it('matches the characters in order, whatever their case or width', () => {
    expect(fuzzyScore('nc', 'New conversation')).not.toBeNull()
    expect(fuzzyScore('ＴＨＥＭＥ', 'Switch theme')).not.toBeNull()
    expect(fuzzyScore('cn', 'New conversation')).not.toBeNull()
    expect(fuzzyScore('xyz', 'New conversation')).toBeNull()
  })

  it('matches Japanese labels', () => {
    expect(fuzzyScore('テーマ', 'テーマを切り替える')).not.toBeNull()
    expect(fuzzyScore('会話', '新しい会話')).not.toBeNull()
  })
})

describe('fuzzyFilter', () => {
  const labels = ['Open settings', 'Switch theme', 'New conversation', 'Show keyboard shortcuts']

  it('puts a whole-word match before a scattered one', () => {
    expect(fuzzyFilter(labels, 'set', (s) => s)[0]).toBe('Open settings')
    expect(fuzzyFilter(labels, 'theme', (s) => s)).toEqual(['Switch theme'])
  })

  it('keeps everything, in order, for an empty query', () => {
    expect(fuzzyFilter(labels, '  ', (s) => s)).toEqual(labels)
  })

  it('drops what does not match', () => {
    expect(fuzzyFilter(labels, 'qq', (s) => s)).toEqual([])
  })
})
