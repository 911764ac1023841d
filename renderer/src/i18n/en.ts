export const en = {
  app: { name: 'Loomverse' },
  header: {
    persona: 'Persona',
    flow: 'Conversation',
    noPersonas: 'No personas yet',
    noFlows: 'No conversations yet',
    settings: 'Settings',
  },
  settings: {
    title: 'Settings',
    language: 'Language',
    languageAuto: 'Automatic (system)',
    theme: 'Theme',
    themeSystem: 'System',
    themeLight: 'Light',
    themeDark: 'Dark',
    close: 'Close',
    saveFailed: 'Could not save settings: {{message}}',
  },
  sidebar: {
    title: 'Buildings',
    empty: 'No buildings yet. Buildings hold your personas, pictures and documents.',
  },
  canvas: {
    label: 'Conversation graph',
    emptyTitle: 'No conversation open',
    emptyBody: 'Each message becomes a node; retries and edits branch instead of overwriting.',
  },
  status: {
    connecting: 'Connecting…',
    connected: 'Connected',
    reconnecting: 'Connection lost, reconnecting…',
    noJobs: 'No background jobs',
    jobsRunning_one: '{{count}} background job',
    jobsRunning_other: '{{count}} background jobs',
    jobProgress: '{{label}} {{done}}/{{total}}',
    jobFailed: '{{label}} failed: {{error}}',
    version: 'v{{version}} · {{mode}} · schema {{schema}}',
    modeElectron: 'desktop',
    modeBrowser: 'browser',
  },
  errors: {
    startFailed: 'Loomverse could not load: {{message}}',
  },
} as const

/** Japanese must have every key English has: the type is the shape of `en` with any strings. */
type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> }
export type Messages = Shape<typeof en>
