import { describe, expect, it } from 'vitest'
import { applyPatch } from './patchText'

const doc = '一行目\n二行目\n三行目\n'

describe('patch_content', () => {
  it('appends plain text on a new line', () => {
    expect(applyPatch(doc, '四行目')).toEqual({ ok: true, text: `${doc}四行目`, mode: 'append' })
    expect(applyPatch('no newline', 'more')).toMatchObject({ text: 'no newline\nmore' })
    expect(applyPatch('', 'first')).toMatchObject({ text: 'first' })
  })

  it('applies a unified diff with headers and several hunks', () => {
    const patch =
      '--- a/doc.txt\n+++ b/doc.txt\n@@ -1,2 +1,2 @@\n 一行目\n-二行目\n+2行目\n@@ -3 +3,2 @@\n 三行目\n+追加\n'
    expect(applyPatch(doc, patch)).toEqual({ ok: true, text: '一行目\n2行目\n三行目\n追加\n', mode: 'diff' })
  })

  it('finds a hunk whose line number is off when its lines match exactly once', () => {
    expect(applyPatch(doc, '@@ -7,1 +7,1 @@\n-三行目\n+3行目\n')).toMatchObject({
      ok: true,
      text: '一行目\n二行目\n3行目\n',
    })
  })

  it('refuses a hunk that does not match, or matches ambiguously, saying which and why', () => {
    expect(applyPatch(doc, '@@ -2 +2 @@\n-二行め\n+x\n')).toEqual({
      ok: false,
      reason: 'hunk 1 (@@ -2): the document has no lines matching "二行め"',
    })
    expect(applyPatch('a\nb\na\n', '@@ -9 +9 @@\n-a\n+c\n')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('occur 2 times'),
    })
    expect(applyPatch(doc, '@@ -1 +1 @@\n*weird\n')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('neither'),
    })
  })
})
