import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The layer rules are only worth having if a violating import really fails lint.
const eslint = new ESLint({ cwd: process.cwd() })

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-globals')
    .map((m) => m.message)
}

describe('layer rules', () => {
  it('stops the renderer from reaching past the bridge', async () => {
    expect(
      await importErrors('renderer/src/features/x.ts', "import { readFileSync } from 'node:fs'\nreadFileSync('a')\n"),
    ).toHaveLength(1)
    expect(
      await importErrors(
        'renderer/src/features/x.ts',
        "import { ipcRenderer } from 'electron'\nipcRenderer.send('a')\n",
      ),
    ).toHaveLength(1)
    expect(
      await importErrors(
        'renderer/src/features/x.ts',
        "import { startCore } from '../../../main/core'\nstartCore({} as never)\n",
      ),
    ).toHaveLength(1)
    expect(
      await importErrors(
        'renderer/src/features/x.ts',
        "import { contract } from '@shared/contract'\nexport const c = contract\n",
      ),
    ).toEqual([])
  })

  it('keeps shared free of Node, Electron, DOM and other layers', async () => {
    expect(await importErrors('shared/x.ts', "import { join } from 'path'\nexport const j = join\n")).toHaveLength(1)
    expect(
      await importErrors('shared/x.ts', "import { core } from '../main/core'\nexport const c = core\n"),
    ).toHaveLength(1)
    expect(await importErrors('shared/x.ts', 'export const w = window.location\n')).toHaveLength(1)
    expect(await importErrors('shared/x.ts', "import { z } from 'zod'\nexport const s = z.string()\n")).toEqual([])
  })

  it('limits preload to electron and shared, and keeps main away from the renderer', async () => {
    expect(await importErrors('preload/x.ts', "import fs from 'node:fs'\nexport const f = fs\n")).toHaveLength(1)
    expect(await importErrors('preload/x.ts', "import { z } from 'zod'\nexport const s = z\n")).toHaveLength(1)
    expect(
      await importErrors(
        'preload/x.ts',
        "import { contextBridge } from 'electron'\nimport { IPC_EVENT } from '@shared/ipc'\nexport const a = [contextBridge, IPC_EVENT]\n",
      ),
    ).toEqual([])
    expect(
      await importErrors('main/x.ts', "import { App } from '../renderer/src/app/App'\nexport const a = App\n"),
    ).toHaveLength(1)
  })
})
