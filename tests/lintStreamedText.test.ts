import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// One helper collects a model's whole answer (llm/completeText); lint refuses another copy of the loop.
const eslint = new ESLint({ cwd: process.cwd() })

async function restrictedSyntax(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message)
}

const collectLoop = `import type { ChatEvent } from '../llm/types'
export async function answer(events: AsyncIterable<ChatEvent>): Promise<string> {
  let text = ''
  for await (const event of events) if (event.type === 'delta') text += event.text
  return text
}
`

describe('one streamed-text helper', () => {
  it("refuses a collect-the-deltas loop outside llm/completeText and the chat's streaming reply", async () => {
    expect(await restrictedSyntax('main/story/storyJobs.ts', collectLoop)).toEqual([
      expect.stringMatching(/from llm\/completeText/),
    ])
    expect(await restrictedSyntax('main/llm/completeText.ts', collectLoop)).toEqual([])
    expect(await restrictedSyntax('main/chat/chatService.ts', collectLoop)).toEqual([])
  })

  it('still asks every transaction in main/ which kind it is', async () => {
    expect(
      await restrictedSyntax('main/story/x.ts', 'export const f = (db: any) => db.transaction(() => 1)()\n'),
    ).toEqual([expect.stringMatching(/\.immediate\(\)/)])
  })
})
