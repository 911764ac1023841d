import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The layer rules are only worth having if a violating import really fails lint.
const eslint = new ESLint({ cwd: process.cwd() })

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages
    .filter((m) =>
      ['no-restricted-imports', 'no-restricted-globals', 'loomverse/layers', 'loomverse/renderer-layers'].includes(
        m.ruleId ?? '',
      ),
    )
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

  describe('the floors of main/ (main/layers.json)', () => {
    const imports = (file: string, spec: string) =>
      importErrors(file, `import * as m from '${spec}'\nexport const x = m\n`)

    it('keeps the kernel below every domain and root', async () => {
      expect(await imports('main/kernel/x.ts', '../graph/graphService')).toEqual([
        expect.stringMatching(/the kernel \(main\/kernel\) imports only .* not main\/graph/),
      ])
      expect(await imports('main/db/x.ts', '../kernel/events')).toHaveLength(1)
      expect(await imports('main/kernel/x.ts', '../core')).toHaveLength(1)
      expect(await imports('main/kernel/jobs/x.ts', '../../db/open')).toEqual([])
    })

    it('lets a domain reach only the kernel and the public modules of the domains below it', async () => {
      expect(await imports('main/graph/x.ts', '../chat/chatService')).toEqual([
        expect.stringMatching(/main\/graph may not import the domain main\/chat/),
      ])
      expect(await imports('main/chat/x.ts', '../graph/graphStore')).toEqual([
        expect.stringMatching(/only through its public modules/),
      ])
      expect(await imports('main/chat/x.ts', '../host/wsHost')).toEqual([
        expect.stringMatching(/may not import the composition root main\/host/),
      ])
      expect(await imports('main/chat/x.ts', '../graph/graphService')).toEqual([])
      expect(await imports('main/chat/x.ts', '../kernel/events')).toEqual([])
    })

    it('lets composition roots import a domain only through its public and wiring modules, and only app/ import Electron', async () => {
      // A root once opened the graph's store itself to remove unfinished imports (recovery/unfinishedImports.ts).
      expect(await imports('main/recovery/x.ts', '../graph/graphStore')).toEqual([
        expect.stringMatching(
          /a composition root \(main\/recovery\) reaches main\/graph only through .* not graph\/graphStore/,
        ),
      ])
      expect(await imports('main/core.ts', './memory/store')).toHaveLength(1)
      expect(await imports('main/core.ts', './graph/graphService')).toEqual([])
      expect(await imports('main/core.ts', './memory/memoryHandlers')).toEqual([])
      expect(await imports('main/workers/x.ts', '../world/worldJobs')).toEqual([])
      expect(await imports('main/core.ts', './kernel/events')).toEqual([])
      expect(await imports('main/cli.ts', './host/wsHost')).toEqual([])
      expect(await imports('main/core.ts', '../tests/support/fakeLlm')).toEqual([
        expect.stringMatching(/never imports test support/),
      ])
      expect(await imports('main/graph/x.ts', 'electron')).toHaveLength(1)
      expect(await imports('main/app/x.ts', 'electron')).toEqual([])
    })

    it('refuses a folder no floor names (unknown = disallowed)', async () => {
      expect(await imports('main/newthing/x.ts', '../graph/graphService')).toEqual([
        expect.stringMatching(/main\/newthing is not in main\/layers.json/),
      ])
    })
  })

  describe('the floors of renderer/src (renderer/src/layers.json)', () => {
    const imports = (file: string, spec: string) =>
      importErrors(file, `import * as m from '${spec}'\nexport const x = m\n`)

    it('keeps each feature out of every other feature', async () => {
      // The import that tied the canvas's cards to the scene feature before SpeakerName moved to ui/.
      expect(await imports('renderer/src/features/graph/ConversationNode.tsx', '../scene/SpeakerName')).toEqual([
        expect.stringMatching(/a feature imports no other feature \(features\/graph → features\/scene\)/),
      ])
      expect(await imports('renderer/src/features/graph/x.tsx', './layout')).toEqual([])
      expect(await imports('renderer/src/features/graph/x.tsx', '../../ui/SpeakerName')).toEqual([])
      expect(await imports('renderer/src/features/graph/x.tsx', '../../store/commands')).toEqual([])
    })

    it('lets only app/ and the entry reach up to features, and nothing reach app/', async () => {
      expect(await imports('renderer/src/features/graph/x.tsx', '../../app/commands')).toEqual([
        expect.stringMatching(/features\/graph may import only store, ui, i18n .* not app/),
      ])
      expect(await imports('renderer/src/store/x.ts', '../features/transcript/activePath')).toEqual([
        expect.stringMatching(/store may import only bridge, i18n .* not features\/transcript/),
      ])
      expect(await imports('renderer/src/ui/x.tsx', '../features/graph/layout')).toHaveLength(1)
      expect(await imports('renderer/src/i18n/x.ts', '../store')).toHaveLength(1)
      expect(await imports('renderer/src/ui/x.tsx', '../main')).toEqual([
        expect.stringMatching(/may not import the entry/),
      ])
      expect(await imports('renderer/src/app/x.tsx', '../features/graph/GraphCanvas')).toEqual([])
      expect(await imports('renderer/src/main.tsx', './app/App')).toEqual([])
    })

    it('keeps test support out of production code, and refuses a folder no floor names', async () => {
      expect(await imports('renderer/src/store/x.ts', '../../../tests/renderer/support/fakeClient')).toEqual([
        expect.stringMatching(/never imports test support/),
      ])
      expect(await imports('renderer/src/store/x.test.ts', '../../../tests/renderer/support/fakeClient')).toEqual([])
      expect(await imports('renderer/src/widgets/x.tsx', '../store')).toEqual([
        expect.stringMatching(/renderer\/src\/widgets is not in renderer\/src\/layers.json/),
      ])
    })
  })
})
