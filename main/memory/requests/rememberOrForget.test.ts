import { describe, expect, it } from 'vitest'
import { askedToForget, askedToRemember } from './rememberOrForget'

describe('askedToRemember', () => {
  it.each([
    ['Remember that my cat is called Mochi.', 'my cat is called Mochi'],
    ['Please remember my birthday is May 5th!', 'my birthday is May 5th'],
    ["Oh, and don't forget that I'm allergic to peanuts.", "I'm allergic to peanuts"],
    ['Hi! Keep in mind that I work night shifts now.', 'I work night shifts now'],
    ['remember: my sister is Aiko', 'my sister is Aiko'],
    ['Remember this, I hate mornings.', 'I hate mornings'],
    ["Remember, I'm vegetarian.", "I'm vegetarian"],
    ['Make a note that I am away next week, thanks', 'I am away next week'],
    ['私の誕生日は5月5日だって覚えておいてね。', '私の誕生日は5月5日'],
    ['ねえ、猫の名前はモチだと覚えておいてください', '猫の名前はモチ'],
    ['私がピーナッツアレルギーなのを忘れないで！', '私がピーナッツアレルギー'],
    ['覚えておいて：妹の名前はアイコ。', '妹の名前はアイコ'],
  ])('keeps what %j asks to remember', (message, told) => {
    expect(askedToRemember(message)).toBe(told)
  })

  it.each([
    'Do you remember that day?',
    'Remember that day at the lake.',
    'I remember when we met in Paris.',
    "Don't forget to call me tomorrow.",
    'Remember when we went camping?',
    'Remember me.',
    'Can you remember my birthday?',
    'Remember this song.',
    'What do you remember about me?',
    'The note says to remember the milk.',
    '昨日のこと覚えてる？',
    '覚えていますか',
    'それ覚えてない',
    'How are you today?',
  ])('asks nothing of %j', (message) => {
    expect(askedToRemember(message)).toBeNull()
  })
})

describe('askedToForget', () => {
  it.each([
    ['Forget that my cat is called Mochi.', 'my cat is called Mochi'],
    ['Actually, please forget about my sister Aiko', 'my sister Aiko'],
    ['forget: I am allergic to peanuts', 'I am allergic to peanuts'],
    ['猫の名前はモチだって忘れて。', '猫の名前はモチ'],
    ['妹の名前のことはもう忘れていいよ', '妹の名前'],
  ])('forgets what %j names', (message, told) => {
    expect(askedToForget(message)).toBe(told)
  })

  it.each([
    'Did you forget my birthday?',
    'Forget it.',
    "Don't forget that my cat is called Mochi.",
    'Never forget that my cat is called Mochi.',
    'I forgot my keys at home.',
    '猫の名前を忘れないで',
    '忘れたの？',
  ])('asks nothing of %j', (message) => {
    expect(askedToForget(message)).toBeNull()
  })
})
