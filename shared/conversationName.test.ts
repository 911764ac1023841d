import { describe, expect, it } from 'vitest'
import { nameFromPrompt } from './conversationName'

describe('a conversation named from its first prompt', () => {
  it('takes the first line that says something, whole when it is short', () => {
    expect(nameFromPrompt('\n\n  Plan a weekend in Kyoto  \nwith temples and food')).toBe('Plan a weekend in Kyoto')
  })

  it('cuts a long line at a word boundary, with an ellipsis, within about 40 columns', () => {
    const name = nameFromPrompt('What are the best places to see the autumn leaves in Kyoto this November?')
    expect(name).toBe('What are the best places to see the…')
    expect(name!.length).toBeLessThanOrEqual(40)
  })

  it('cuts Japanese, which has no spaces, between words, counting each character as two columns', () => {
    const name = nameFromPrompt('明日は京都へ行って紅葉を見たいのですが、おすすめの場所と時間帯を教えてください')!
    expect(name.endsWith('…')).toBe(true)
    // 19 wide characters and the ellipsis at most.
    expect([...name].length).toBeLessThanOrEqual(20)
    expect('明日は京都へ行って紅葉を見たいのですが'.startsWith(name.slice(0, -1))).toBe(true)
    expect(nameFromPrompt('今日は東京で桜を見ました')).toBe('今日は東京で桜を見ました')
  })

  it('drops Markdown marks that open the line and control characters', () => {
    expect(nameFromPrompt('## Trip notes\nday one')).toBe('Trip notes')
    expect(nameFromPrompt('> quoted\u0007 text')).toBe('quoted text')
    expect(nameFromPrompt('- a list item')).toBe('a list item')
  })

  it('cuts a single word longer than the width inside it', () => {
    const word = 'Donaudampfschifffahrtsgesellschaftskapitänswitwe'
    expect(nameFromPrompt(`${word} story`)).toBe(`${word.slice(0, 39)}…`)
  })

  it('gives no name for a prompt with no text', () => {
    expect(nameFromPrompt('')).toBeNull()
    expect(nameFromPrompt('  \n\t\n')).toBeNull()
  })
})
