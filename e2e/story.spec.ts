import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

// Story mode as a player meets it (issue #10's walk-through): a Japanese template, an edit in
// the app, five turns with the threshold summary and a character update, undo, save, a branch,
// load, a fork from a node, and the Markdown export read back from disk.

const MIRA_UPDATED = [
  '# ミラ',
  '',
  '## 外見',
  'フードを深くかぶり、灰色の瞳。左手に火傷の跡。',
  '',
  '## 性格',
  '用心深く機転が利く。一度信じた相手には義理堅い。',
  '',
  '## 口調',
  '短く話す。家名は決して口にしない。',
  '',
  '## 関係',
  'ロウアンに地図を託した。',
  '',
  '## 現在の状態',
  'ロウアンと共に物見塔へ向かっている。',
].join('\n')

async function play(page: Page, text: string, reply: string, llm: { script: (rule: object) => unknown }) {
  llm.script({ promptIncludes: text, times: 1, reply })
  const input = page.getByLabel('What you do or say')
  await input.fill(text)
  await input.press('Control+Enter')
  await expect(page.getByRole('region', { name: 'The story' })).toContainText(reply)
  await expect(input).toHaveValue('')
}

test('a story from a Japanese template: edit, five turns, summary and sheet update, undo, save, branch, load, fork, export', async ({
  page,
  app,
  llm,
  server,
}) => {
  // The window never throws on the way (hiding the graph once blanked it: React's update limit).
  const thrown: string[] = []
  page.on('pageerror', (e) => thrown.push(e.message))
  await app.open()
  await page.getByRole('button', { name: 'Stories' }).click()
  const picker = page.getByRole('dialog', { name: 'Stories' })
  await picker.getByLabel('Name').fill('霧の国')
  await picker.getByLabel('Template', { exact: true }).selectOption('fantasy')
  await picker.getByLabel('Template language').selectOption('ja')
  await picker.getByRole('button', { name: 'Create story' }).click()
  const panel = page.getByRole('region', { name: 'Story 霧の国' })
  // The story reads in the conversation's own transcript, the player's turn typed under it.
  const story = page.getByRole('region', { name: 'The story' })
  await expect(story).toContainText('曲がり灯') // the opening scene
  const dir = join(server.home, 'scenarios', '霧の国')

  // Edit the world in the app; the file on disk is the source of truth.
  await panel.getByRole('tab', { name: 'Scenario' }).click()
  await panel.getByRole('button', { name: '00_world_setting.md' }).click()
  const editor = panel.getByLabel('Edit scenario/00_world_setting.md')
  await editor.fill('# 世界観：アステル王国\n\n霧に包まれた王国。魔法は稀で恐れられている。\n')
  await panel.getByRole('button', { name: 'Save file' }).click()
  await expect(panel.getByRole('button', { name: 'Save file' })).toBeDisabled()
  expect(readFileSync(join(dir, 'scenario/00_world_setting.md'), 'utf8')).toContain('霧に包まれた王国')

  // A summary after four turns, keeping two word for word (as the user would set it in the file).
  writeFileSync(
    join(dir, '.storygamesetting.json'),
    JSON.stringify({ summarizationTriggerMessages: 8, shortTermTurns: 2, models: {} }),
  )
  llm.script({
    promptIncludes: '対話型ストーリーの記録係',
    reply: 'ロウアンはミラから地図を受け取り、物見塔へ向かった。',
  })
  llm.script({ promptIncludes: '「mira」のキャラクターシート', reply: MIRA_UPDATED })

  await panel.getByRole('tab', { name: 'Play' }).click()
  await play(page, '地図を広げる。', '地図には古い物見塔が描かれている。', llm)
  await play(page, 'ミラに名前を尋ねる。', '「ミラ」と彼女は短く答えた。', llm)
  await play(page, '物見塔へ向かう。', '霧の中、塔の影が見えてきた。', llm)
  await play(page, '扉を押す。', '扉は軋んで開いた。', llm)
  // The fourth turn passed the trigger: the story so far is made in the background.
  await expect(panel.getByText('The story so far')).toBeVisible({ timeout: 20_000 })
  await play(page, '中に入る。', '螺旋階段が上へ続いている。', llm)

  // The inspector shows the story so far among the parts of the next turn's context.
  await page.getByLabel('What you do or say').fill('階段を上る。')
  await page.getByRole('button', { name: 'Context', exact: true }).click()
  const inspector = page.getByRole('region', { name: 'Context inspector' })
  await expect(inspector.locator('[data-kind=story_summary]')).toContainText('ロウアンはミラから地図を受け取り')
  await expect(inspector.locator('[data-kind=scenario]').first()).toContainText('霧に包まれた王国')
  await page.getByRole('button', { name: 'Story: 霧の国' }).click()

  // Mira's sheet changed after the summary: a diff to review, reverted.
  await panel.getByRole('tab', { name: 'Characters' }).click()
  const change = panel.getByRole('listitem').filter({ hasText: 'mira.md' }).filter({ hasText: 'to review' })
  await expect(change.getByLabel('Changes to scenario/characters/mira.md')).toContainText(
    '+ ロウアンと共に物見塔へ向かっている。',
  )
  await change.getByRole('button', { name: 'Revert' }).click()
  await expect(panel.getByRole('listitem').filter({ hasText: 'mira.md' }).first()).toContainText('revert')
  expect(readFileSync(join(dir, 'scenario/characters/mira.md'), 'utf8')).toContain('女王の衛兵から逃れ')
  // The sheet itself is listed by name and opens in the Scenario tab's editor, with the words it has now.
  await panel.getByRole('list', { name: 'Character sheets' }).getByRole('button', { name: 'mira' }).click()
  await expect(panel.getByRole('tab', { name: 'Scenario' })).toHaveAttribute('aria-selected', 'true')
  await expect(panel.getByLabel('scenario/characters/mira.md', { exact: false })).toHaveValue(/女王の衛兵から逃れ/)

  // Undo the last turn, save there, play another way, and load the save.
  await panel.getByRole('tab', { name: 'Play' }).click()
  await panel.getByRole('button', { name: 'Undo turn' }).click()
  await expect(story).not.toContainText('螺旋階段')
  await panel.getByRole('button', { name: 'Save', exact: true }).click()
  await panel.getByLabel('Name of the save').fill('扉の前')
  await panel.getByRole('button', { name: 'Save here' }).click()
  await play(page, '引き返す。', '霧が背中を押すように流れた。', llm)
  await expect(story).not.toContainText('螺旋階段')
  await panel.getByRole('button', { name: 'Load' }).click()
  await panel
    .getByRole('list', { name: 'Saves' })
    .getByRole('button', { name: /扉の前 — turn 4/ })
    .click()
  await expect(story).not.toContainText('霧が背中を押す')
  await expect(story).toContainText('扉は軋んで開いた。')

  // Fork from here: a new story with the path so far.
  await page.getByRole('button', { name: 'Stories' }).click()
  await picker.getByRole('button', { name: 'Fork 霧の国' }).click()
  await picker.getByLabel('Name of the new story').fill('霧の国 IF')
  await picker.getByRole('button', { name: 'Create the fork' }).click()
  const fork = page.getByRole('region', { name: 'Story 霧の国 IF' })
  await expect(fork).toBeVisible()
  await expect(page.getByRole('heading', { name: '霧の国 IF', level: 2 }).first()).toBeVisible()
  await expect(story).toContainText('扉は軋んで開いた。')
  expect(readFileSync(join(server.home, 'scenarios', '霧の国 IF', 'scenario/00_world_setting.md'), 'utf8')).toContain(
    '霧に包まれた王国',
  )

  // A reader's view: the story without the graph, and back.
  await fork.getByRole('button', { name: 'Hide the graph' }).click()
  await expect(page.locator('section.graph-canvas')).toBeHidden()
  await expect(story).toBeVisible()
  await fork.getByRole('button', { name: 'Hide the graph' }).click()
  await expect(page.locator('section.graph-canvas')).toBeVisible()

  // Export the fork's path as Markdown and read it back.
  await fork.getByRole('button', { name: 'Export Markdown' }).click()
  const toast = page.locator('.toast').filter({ hasText: 'Exported to' })
  await expect(toast).toBeVisible()
  const file = (await toast.textContent())!.match(/Exported to (.+\.md)/)![1]!
  const markdown = readFileSync(join(server.home, file), 'utf8')
  expect(markdown).toMatch(/^# 霧の国 IF\n/)
  expect(markdown).toContain('> 扉を押す。')
  expect(markdown).not.toContain('引き返す')
  expect(thrown).toEqual([])
})
