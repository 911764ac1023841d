import { randomUUID } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { StorySettings, type StoryTemplate } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { Language } from '../kernel/language'
import { PROJECT_FOLDERS, SCENARIO, SETTINGS_FILE, ScenarioFiles, promptPath, type PromptName } from './scenarioFiles'
import { checkStoryName, storyNameKey } from './storyName'
import { en } from './templates/en'
import { ja } from './templates/ja'

const templates = { ja, en } as const

const GITIGNORE = `# Play logs and autosaves are personal; the scenario is what you share.
logs/autosaves/
logs/archives/
`

/** The file `summaries/latest_summary.json` starts as, and mirrors the active branch's summary after. */
export function latestSummaryJson(summary: {
  text: string
  node_id: string | null
  updated_at: string | null
}): string {
  return `${JSON.stringify({ summary: summary.text, node_id: summary.node_id, updated_at: summary.updated_at }, null, 2)}\n`
}

/**
 * Creates `scenarios/<name>/` with the seed's layout (F-001). Everything is written in a temp
 * folder first and moved into place at the end: a refusal or a crash leaves no half project.
 * With `scenarioFrom`, the scenario folder is copied from that project instead (a fork, F-002).
 */
export function createProject(
  scenariosDir: string,
  input: {
    name: string
    template: StoryTemplate
    language: Language
    scenarioFrom?: ScenarioFiles
    /** The stories the app knows, whose folders may have gone meanwhile: their names stay taken. */
    takenNames: readonly string[]
  },
): ScenarioFiles {
  const name = checkStoryName(input.name)
  mkdirSync(scenariosDir, { recursive: true })
  const target = join(scenariosDir, name)
  const taken = new Set([...readdirSync(scenariosDir), ...input.takenNames].map(storyNameKey))
  if (existsSync(target) || taken.has(storyNameKey(name)))
    throw new AppError('conflict', `a story named "${name}" exists already`, {
      key: 'story_name_taken',
      params: { name },
    })
  const temp = join(scenariosDir, `.tmp-${randomUUID()}`)
  try {
    mkdirSync(temp)
    for (const folder of PROJECT_FOLDERS) mkdirSync(join(temp, folder), { recursive: true })
    const files = new ScenarioFiles(temp)
    files.write(SETTINGS_FILE, `${JSON.stringify(StorySettings.parse({}), null, 2)}\n`)
    files.write('.gitignore', GITIGNORE)
    files.write('summaries/latest_summary.json', latestSummaryJson({ text: '', node_id: null, updated_at: null }))
    if (input.scenarioFrom) copyScenario(input.scenarioFrom, files)
    else writeTemplate(files, input.template, input.language)
    renameSync(temp, target)
  } catch (e) {
    rmSync(temp, { recursive: true, force: true })
    throw e
  }
  return new ScenarioFiles(target)
}

function writeTemplate(files: ScenarioFiles, template: StoryTemplate, language: Language): void {
  const set = templates[language]
  const t = set[template]
  files.write(SCENARIO.world, t.world)
  files.write(SCENARIO.player, t.player)
  files.write(SCENARIO.rules, t.rules)
  files.write(SCENARIO.opening, t.opening)
  for (const [file, text] of Object.entries(t.characters)) files.write(`${SCENARIO.characters}/${file}`, text)
  for (const [prompt, text] of Object.entries(set.prompts)) files.write(promptPath(prompt as PromptName), text)
}

/** The prompt the project keeps for a purpose, or the template's when the user deleted it. */
export function projectPrompt(files: ScenarioFiles, name: PromptName, language: Language): string {
  return files.readOrNull(promptPath(name)) ?? templates[language].prompts[name]
}

/**
 * Copies `scenario/` recursively, regular files and folders only: a link in the source is
 * skipped, so nothing outside the original project is read.
 */
function copyScenario(from: ScenarioFiles, to: ScenarioFiles): void {
  const walk = (rel: string) => {
    const source = from.resolve(rel)
    mkdirSync(to.resolve(rel), { recursive: true })
    for (const entry of readdirSync(source, { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`
      if (entry.isDirectory()) walk(child)
      else if (entry.isFile()) copyFileSync(from.resolve(child), to.resolve(child))
    }
  }
  walk('scenario')
}
