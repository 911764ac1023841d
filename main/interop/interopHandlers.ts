import { randomUUID } from 'node:crypto'
import { basename, join, resolve } from 'node:path'
import type { interopMethods } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { EventBus } from '../kernel/events'
import type { HomePaths } from '../kernel/home'
import type { LorebookService } from '../lorebook/lorebookService'
import { cardCharx, cardData, cardPng, greetingsOf } from './characterCard/cardExport'
import type { PersonaService } from '../persona/personaService'
import { chooseImportPath } from '../kernel/importFile'
import { inUserWords, refuseOtherKind } from '../kernel/importGuess'
import type { Language } from '../kernel/language'
import { callerNamesAnyPath, type HandlerModule } from '../kernel/router'
import { importCard } from './characterCard/cardImport'
import { importChatgpt } from './chatgpt/chatgptImport'
import { ImportsFolder } from './importsFolder'
import { exportMarkdown, type ExportTarget } from './markdownExport'
import { exportVizprompt, importVizprompt, type VizpromptDeps } from './vizprompt'

/** VizPrompt folders in and out: the CLI's export and import, and the app's, through one contract. */
export function interopHandlers(
  deps: VizpromptDeps & {
    bus: EventBus
    paths: HomePaths
    personas: PersonaService
    lorebooks: LorebookService
    exportTarget?: ExportTarget
    /** The language of the user's messages: a file of another kind is refused in their words. */
    language?: () => Language
    /** The user's name, for {{user}} in a card's greetings. */
    userName?: () => string
  },
): HandlerModule<typeof interopMethods> {
  const imports = new ImportsFolder(deps.paths.imports)
  const language = deps.language ?? (() => 'en' as const)
  return {
    imports_upload: (i) => imports.upload(i),
    character_card_export: (i) => {
      const persona = deps.personas.get(i.persona_id)
      // The persona's first conversation holds the greetings a card import made.
      const first = deps.graph
        .listFlows()
        .filter((f) => f.persona_id === persona.id)
        .sort((a, b) => a.created.localeCompare(b.created))[0]
      const greetings = greetingsOf(first ? deps.graph.loadFlow(first.id) : null)
      const data = cardData({ persona, greetings, lorebooks: deps.lorebooks })
      const picture = deps.personas.avatarBytes(persona.id)
      const file =
        i.format === 'charx'
          ? cardCharx(data, picture)
          : cardPng(data, picture?.mime === 'image/png' ? picture.data : undefined)
      return { file_name: `${persona.name}.${i.format ?? 'png'}`, data_base64: file.toString('base64') }
    },
    imports_list: () => imports.list(),
    export_markdown: (i) =>
      exportMarkdown(
        {
          graph: deps.graph,
          home: deps.paths.home,
          exports: deps.paths.exports,
          target: deps.exportTarget ?? (() => null),
        },
        i,
      ),
    vizprompt_export: async (i, ctx) => {
      const outDir = callerNamesAnyPath(ctx)
        ? resolve(i.out ?? join(deps.paths.exports, 'vizprompt'))
        : join(deps.paths.exports, exportFolderName(i.out ?? 'vizprompt'))
      const result = await exportVizprompt(deps, { outDir, flowIds: i.flow_id ? [i.flow_id] : undefined })
      return { out_dir: result.outDir, flows: result.flows, nodes: result.nodes }
    },
    chatgpt_import: async (i, ctx) => {
      const chosen = await chooseImportPath(i.path, callerNamesAnyPath(ctx) ? null : deps.paths.imports)
      refuseOtherKind(chosen.path, chosen.name, 'chatgpt', language())
      return inUserWords('chatgpt', language(), () => importChatgpt(deps, chosen.path, chosen.name))
    },
    character_card_import: async (i, ctx) => {
      const chosen = await chooseImportPath(i.path, callerNamesAnyPath(ctx) ? null : deps.paths.imports)
      refuseOtherKind(chosen.path, chosen.name, 'card', language())
      return inUserWords('card', language(), () => importCard(deps, chosen.path, chosen.name))
    },
    vizprompt_import: async (i, ctx) => {
      const chosen = await chooseImportPath(i.path, callerNamesAnyPath(ctx) ? null : deps.paths.imports)
      const job = `import:vizprompt:${randomUUID()}`
      let shownAt = 0
      const summary = await importVizprompt(deps, chosen.path, {
        onProgress: (done, total) => {
          // A few times a second is enough for a status bar.
          if (done < total && performance.now() - shownAt < 100) return
          shownAt = performance.now()
          const state = done < total ? 'running' : 'done'
          deps.bus.emit('job_progress', { job_id: job, label: 'VizPrompt import', state, done, total })
        },
      })
      return summary
    },
  }
}

/** From a window, an export goes to a folder of exports/ named by one plain name: never elsewhere. */
function exportFolderName(name: string): string {
  if (name !== basename(name) || name === '.' || name === '..' || /[\\/:\0]/.test(name))
    throw new AppError('bad_input', `vizprompt_export: out: "${name}" must be one folder name inside exports/`)
  return name
}
