import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { chatgptConversation, pngWith, v2Card } from '../../tests/support/foreignFiles'
import { useTempHome } from '../../tests/support/tempHome'
import { ImportFileError } from './importFileError'
import { GUESS_BYTES, guessImportFile, inUserWords, refuseOtherKind } from './importGuess'

const home = useTempHome()

function file(name: string, content: string | Buffer): string {
  const dir = join(home(), 'imports')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, name), content)
  return join(dir, name)
}

const guess = (name: string, content: string | Buffer) => guessImportFile(file(name, content), name)

/** SillyTavern's own export of a v2 card: the v1 fields at the top level beside spec and data. */
const sillyTavernExport = {
  name: v2Card.data.name,
  description: v2Card.data.description,
  personality: v2Card.data.personality,
  first_mes: v2Card.data.first_mes,
  avatar: 'none',
  chat: 'Seraphina - 2024-5-1 @12h 00m 00s 000ms',
  create_date: '2024-5-1 @12h 00m 00s 000ms',
  ...v2Card,
}

const v1Card = {
  name: 'Aqua',
  description: 'A water goddess.',
  personality: 'cheerful',
  scenario: '{{user}} meets her in Axel.',
  first_mes: 'Hello!',
  mes_example: '',
}

const v3Card = { spec: 'chara_card_v3', spec_version: '3.0', data: { ...v2Card.data, group_only_greetings: [] } }

/** LoCoMo's layout: the questions first, then the conversation's sessions. */
const locomo = [
  {
    sample_id: 'conv-26',
    qa: [{ question: 'When did Caroline go?', answer: '7 May 2023', evidence: ['D1:3'], category: 2 }],
    conversation: {
      speaker_a: 'Caroline',
      speaker_b: 'Melanie',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [{ speaker: 'Caroline', dia_id: 'D1:1', text: 'Hey Mel!' }],
    },
  },
]

describe('guessing what a file to import is, by its content', () => {
  it('tells a character card from a chat log whatever its name: v1, v2, v3, SillyTavern’s export and a PNG', () => {
    expect(guess('seraphina.json', JSON.stringify(v2Card))).toBe('card')
    expect(guess('seraphina (2).json', JSON.stringify(sillyTavernExport, null, 2))).toBe('card')
    expect(guess('aqua.json', JSON.stringify(v1Card))).toBe('card')
    expect(guess('v3.json', JSON.stringify(v3Card))).toBe('card')
    expect(guess('picture.png', pngWith({ chara: Buffer.from(JSON.stringify(v2Card)).toString('base64') }))).toBe(
      'card',
    )
    // A card is a card under any name, even one that says "conversations".
    expect(guess('conversations.json', JSON.stringify(v2Card))).toBe('card')
    // Bigger than what is read: the start still says so.
    const long = { ...v2Card, data: { ...v2Card.data, description: 'x'.repeat(GUESS_BYTES * 2) } }
    expect(guess('long.json', JSON.stringify(long))).toBe('card')
  })

  it('tells a CHARX card (a zip with card.json) from another zip, whatever its name', () => {
    const charx = zipSync({
      'assets/icon/images/main.png': [pngWith({}), { level: 0 }],
      'card.json': Buffer.from(JSON.stringify(v3Card)),
    })
    expect(guess('seraphina.charx', Buffer.from(charx))).toBe('card')
    expect(guess('download', Buffer.from(charx))).toBe('card')
    expect(guess('notes.zip', Buffer.from(zipSync({ 'notes/card.json.txt': Buffer.from('x') })))).toBe('unknown')
  })

  it('tells a ChatGPT export, a LoCoMo file, JSON Lines and a transcript apart', () => {
    expect(guess('export.json', JSON.stringify([chatgptConversation()]))).toBe('chatgpt')
    const many = Array.from({ length: 200 }, () => chatgptConversation())
    expect(JSON.stringify(many).length).toBeGreaterThan(GUESS_BYTES)
    expect(guess('conversations.json', JSON.stringify(many))).toBe('chatgpt')
    expect(guess('locomo10.json', JSON.stringify(locomo, null, 2))).toBe('chat_log')
    const lines = [
      { id: 1, speaker: 'Mio', text: 'Good morning', time: '2024-05-01T08:00:00Z' },
      { id: 2, speaker: 'Sora', text: 'Morning!', time: '2024-05-01T08:01:00Z' },
    ]
    expect(guess('diary.json', lines.map((l) => JSON.stringify(l)).join('\n'))).toBe('chat_log')
    expect(guess('diary.txt', 'Mio: Good morning\nSora: Morning!\n')).toBe('chat_log')
  })

  it('leaves what it cannot place unknown, and never reads through a link', () => {
    expect(guess('settings.json', '{"theme": "dark"}')).toBe('unknown')
    expect(guess('list.json', '[1, 2, 3]')).toBe('unknown')
    const target = file('real.json', JSON.stringify(v2Card))
    const link = join(home(), 'imports', 'link.json')
    symlinkSync(target, link)
    expect(guessImportFile(link, 'link.json')).toBe('unknown')
  })
})

describe('refusing a file of another kind, in the user’s words', () => {
  it('names what the file looks like and which choice imports it, in English and Japanese', () => {
    const card = file('seraphina.json', JSON.stringify(v2Card))
    expect(() => refuseOtherKind(card, 'seraphina.json', 'chat_log', 'en')).toThrow(
      'seraphina.json: This file looks like a SillyTavern character card, not a chat log. Choose "Character card" to import it as a persona.',
    )
    expect(() => refuseOtherKind(card, 'seraphina.json', 'chatgpt', 'ja')).toThrow(
      'seraphina.json: このファイルはSillyTavern のキャラクターカードのようです（ChatGPT のエクスポートではありません）。「キャラクターカード」を選ぶとペルソナとして取り込めます。',
    )
    const chatgpt = file('conversations.json', JSON.stringify([chatgptConversation()]))
    expect(() => refuseOtherKind(chatgpt, 'conversations.json', 'card', 'en')).toThrow(
      /looks like a ChatGPT export, not a SillyTavern character card\. Choose "ChatGPT export"/,
    )
    // The right kind, or one the guess cannot place, goes on to the import.
    expect(() => refuseOtherKind(card, 'seraphina.json', 'card', 'en')).not.toThrow()
    expect(() => refuseOtherKind(file('odd.json', '{"a": 1}'), 'odd.json', 'chatgpt', 'en')).not.toThrow()
  })

  it('leads an import’s own refusal with a Japanese sentence for a Japanese window, keeping its file, line and reason', async () => {
    const refused = () => Promise.reject(new ImportFileError('odd.json', 3, 'is not a ChatGPT export: expected a list'))
    await expect(inUserWords('chatgpt', 'ja', refused)).rejects.toMatchObject({
      code: 'bad_file',
      message: 'odd.json:3: ChatGPT のエクスポートとして読めませんでした（is not a ChatGPT export: expected a list）',
    })
    await expect(inUserWords('chatgpt', 'en', refused)).rejects.toMatchObject({
      message: 'odd.json:3: is not a ChatGPT export: expected a list',
    })
    await expect(inUserWords('card', 'ja', () => Promise.resolve(7))).resolves.toBe(7)
  })
})
