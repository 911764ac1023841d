import { describe, expect, it } from 'vitest'
import { routePlaybook } from './metaRouter'
import { playbooks } from './playbook'
import { runPlaybook } from './playbookEngine'

describe('the meta router (seed keyword lists)', () => {
  it.each([
    ['この絵を見る', 'item_view_playbook'],
    ['ガイドを読む', 'item_view_playbook'],
    ['図書館の本を調べる', 'item_view_playbook'],
    ['内容を確認する', 'item_view_playbook'],
    ['日記を編集して', 'item_edit_playbook'],
    ['説明を書き換える', 'item_edit_playbook'],
    ['文書にパッチを当てる', 'item_edit_playbook'],
    ['説明を更新する', 'item_edit_playbook'],
    ['新しい文書を作る', 'document_create_playbook'],
    ['今日の日記を書く', 'document_create_playbook'],
    ['紹介の文章を作成', 'document_create_playbook'],
    ['Please read the guide', 'item_view_playbook'],
  ])('%s → %s', (text, playbook) => {
    expect(routePlaybook(text)).toBe(playbook)
  })

  it('leaves everything else to normal chat', () => {
    for (const text of ['こんにちは', '今日の天気は？', 'my credit card', 'already done'])
      expect(routePlaybook(text)).toBeNull()
  })
})

describe('the playbook engine', () => {
  it('runs the edit playbook: select, view, decide, route to item_use, memorize', async () => {
    const tools: Array<[string, Record<string, unknown>]> = []
    const memories: string[] = []
    const replies = [
      { item_id: 'doc-1' },
      { action: 'edit', action_json: { action_type: 'patch_content', patch: '追記' } },
    ]
    const result = await runPlaybook(
      playbooks.item_edit_playbook,
      { input: '日記を編集して', items: '[]' },
      {
        llm: async () => replies.shift()!,
        tool: async (name, args) => {
          tools.push([name, args])
          return name === 'item_view' ? '日記の本文' : '文書に追記しました。'
        },
        memorize: async (text) => void memories.push(text),
      },
    )
    expect(result.steps.map((s) => s.node)).toEqual([
      'select_item',
      'item_view',
      'decide_action',
      'action_router',
      'item_use',
      'record',
    ])
    expect(tools).toEqual([
      ['item_view', { item_id: 'doc-1' }],
      ['item_use', { item_id: 'doc-1', action_json: { action_type: 'patch_content', patch: '追記' } }],
    ])
    expect(memories).toEqual(['アイテム doc-1 について edit: 文書に追記しました。'])
  })

  it('takes the view_only route without touching the item', async () => {
    const replies = [{ item_id: 'doc-1' }, { action: 'view_only' }]
    const used: string[] = []
    const result = await runPlaybook(
      playbooks.item_edit_playbook,
      { input: '確認して', items: '[]' },
      { llm: async () => replies.shift()!, tool: async (n) => (used.push(n), 'text'), memorize: async () => {} },
    )
    expect(used).toEqual(['item_view'])
    expect(result.steps.at(-1)!.node).toBe('record')
  })
})
