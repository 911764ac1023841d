// Lint enforces the layers of DESIGN.md: shared imports nothing platform-specific,
// the renderer reaches the main process only through the bridge, preload is electron +
// shared, and main never imports the renderer. A violating import fails `npm run lint`.
import { builtinModules } from 'node:module'
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { layersPlugin } from './scripts/eslintLayers.mjs'

const nodeBuiltins = ['node:*', ...builtinModules, ...builtinModules.map((m) => `${m}/*`)]
const nativeOrServer = ['electron', 'better-sqlite3', 'sqlite-vec', 'ws']

const layer = (message, group) => ({ group, message })

export const layerRules = {
  shared: [
    layer('shared/ runs in every process: no Node built-ins, Electron, native modules or React.', [
      ...nodeBuiltins,
      ...nativeOrServer,
      'react',
      'react-dom',
      'react/*',
    ]),
    layer('shared/ imports only shared/.', ['**/main/**', '**/renderer/**', '**/preload/**', '@/*']),
  ],
  renderer: [
    layer('The renderer reaches the main process only through the bridge (renderer/src/bridge).', [
      ...nodeBuiltins,
      ...nativeOrServer,
      '**/main/**',
      '**/preload/**',
    ]),
  ],
  preload: [
    layer('preload/ may import only electron and shared/.', [
      '*',
      '!electron',
      '!@shared',
      '!@shared/**',
      '**/main/**',
      '**/renderer/**',
    ]),
  ],
  main: [
    layer('main/ never imports the renderer or preload.', ['**/renderer/**', '**/preload/**', 'react', 'react-dom']),
  ],
}

// The main thread and the worker threads share each SQLite file. A plain (deferred)
// transaction that reads and then writes fails with SQLITE_BUSY when the other thread
// commits in between, and busy_timeout cannot help it: say which kind every one is.
const transactionKind = {
  selector: "CallExpression[arguments.length=0] > CallExpression.callee[callee.property.name='transaction']",
  message:
    'Call .immediate() (a write transaction: takes the write lock at BEGIN) or .deferred() (read only) on db.transaction(fn).',
}
// A model's whole answer is collected in one place; only the chat's reply, which streams each
// delta on to the window, reads a chat stream's deltas itself.
const oneStreamedTextHelper = {
  selector: "BinaryExpression[operator='==='][right.value='delta'][left.property.name='type']",
  message:
    "Take a model's whole answer from llm/completeText (completeText or completeWithUsage) instead of collecting the stream's deltas again.",
}

const restrict = (key) => ({ 'no-restricted-imports': ['error', { patterns: layerRules[key] }] })

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      'no-restricted-syntax': ['error', transactionKind],
    },
  },
  {
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      ...restrict('shared'),
      // shared/ has no DOM and no Node: these names must not appear there.
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'navigator',
        'process',
        'Buffer',
        'require',
        'localStorage',
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, loomverse: layersPlugin },
    rules: { ...restrict('renderer'), ...reactHooks.configs.recommended.rules, 'loomverse/renderer-layers': 'error' },
  },
  { files: ['preload/**/*.ts'], rules: restrict('preload') },
  {
    files: ['main/**/*.ts'],
    languageOptions: { globals: globals.node },
    plugins: { loomverse: layersPlugin },
    rules: { ...restrict('main'), 'loomverse/layers': 'error' },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/llm/completeText.ts', 'main/chat/chatService.ts', '**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', transactionKind, oneStreamedTextHelper] },
  },
  {
    files: ['**/*.{js,mjs}', 'e2e/**/*.ts', 'bench/**/*.ts', 'scripts/**/*'],
    languageOptions: { globals: globals.node },
  },
)
