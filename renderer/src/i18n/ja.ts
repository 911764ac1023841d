import type { Messages } from './en'

export const ja: Messages = {
  app: { name: 'Loomverse' },
  header: {
    persona: 'ペルソナ',
    flow: '会話',
    noPersonas: 'ペルソナはまだありません',
    noFlows: '会話はまだありません',
    settings: '設定',
  },
  settings: {
    title: '設定',
    language: '言語',
    languageAuto: '自動（システム）',
    theme: 'テーマ',
    themeSystem: 'システム',
    themeLight: 'ライト',
    themeDark: 'ダーク',
    close: '閉じる',
    saveFailed: '設定を保存できませんでした: {{message}}',
  },
  sidebar: {
    title: '建物',
    empty: '建物はまだありません。建物にはペルソナ、画像、文書が置かれます。',
  },
  canvas: {
    label: '会話グラフ',
    emptyTitle: '開いている会話はありません',
    emptyBody: 'メッセージはそれぞれノードになり、再生成や編集は上書きせずに分岐します。',
  },
  status: {
    connecting: '接続中…',
    connected: '接続済み',
    reconnecting: '接続が切れました。再接続しています…',
    noJobs: 'バックグラウンド処理なし',
    jobsRunning_one: 'バックグラウンド処理 {{count}} 件',
    jobsRunning_other: 'バックグラウンド処理 {{count}} 件',
    jobProgress: '{{label}} {{done}}/{{total}}',
    jobFailed: '{{label}} が失敗しました: {{error}}',
    version: 'v{{version}} · {{mode}} · スキーマ {{schema}}',
    modeElectron: 'デスクトップ',
    modeBrowser: 'ブラウザ',
  },
  errors: {
    startFailed: 'Loomverse を読み込めませんでした: {{message}}',
  },
}
