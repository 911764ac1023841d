/** One template in one language: the scenario's Markdown files, by path under `scenario/`. */
export interface ScenarioTemplate {
  world: string
  player: string
  rules: string
  opening: string
  /** Character sheets by file name (`mira.md`). */
  characters: Record<string, string>
}

/** The prompts a project keeps under `scenario/prompts/`, editable like the rest. */
export interface ScenarioPrompts {
  summarization: string
  character_update: string
  character_generation: string
  log_digest: string
}

export interface TemplateSet {
  prompts: ScenarioPrompts
  blank: ScenarioTemplate
  fantasy: ScenarioTemplate
  school: ScenarioTemplate
}
