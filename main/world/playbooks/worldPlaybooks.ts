import type { Parsed, PlaybookName } from '@shared/contract'
import { AppError } from '@shared/errors'
import { resolveModel } from '../../llm/models'
import type { WorldDeps, MemorySink } from '../worldDeps'
import { runWorldTool } from '../worldToolRunner'
import type { WorldService } from '../worldService'
import { routePlaybook } from './metaRouter'
import { playbooks } from './playbook'
import { runPlaybook, type PlaybookStep } from './playbookEngine'
import { completeText } from '../../llm/completeText'

/** `run_playbook`: the meta router (or the named playbook) run for a persona in its building. */
export async function runWorldPlaybook(
  world: WorldService,
  deps: WorldDeps,
  memorize: MemorySink,
  input: Parsed<'run_playbook'>,
): Promise<{ playbook: PlaybookName | null; steps: PlaybookStep[]; output: string }> {
  const name = input.playbook ?? routePlaybook(input.text)
  if (!name) return { playbook: null, steps: [], output: '' }
  const personaId = input.persona_id ?? null
  const persona = deps.personas.find(personaId)
  if (personaId && !persona) throw new AppError('not_found', `persona ${personaId} not found`)
  const items = world.store
    .itemsIn(world.personaBuilding(personaId))
    .map((i) => ({ item_id: i.id, type: i.type, name: i.name, description: i.description }))
  const ref = resolveModel('chat', persona?.chat_model, deps.env)
  const result = await runPlaybook(
    playbooks[name],
    { input: input.text, items: JSON.stringify(items) },
    {
      async llm(prompt, schema) {
        const text = await completeText(deps.llm, ref, [{ role: 'user', content: prompt }], {
          json: true,
          temperature: persona?.temperature ?? undefined,
        })
        return parseReply(text, schema)
      },
      tool: async (tool, args) => (await runWorldTool(world, deps.personas, deps.env, tool, args, personaId)).content,
      memorize: (text) => memorize({ persona_id: personaId, playbook: name, text }),
    },
  )
  return { playbook: name, ...result }
}

/** The model's JSON object; a missing required field is an error naming it. */
function parseReply(text: string, schema: Record<string, string>): Record<string, unknown> {
  const body = /\{[\s\S]*\}/.exec(text)?.[0]
  let parsed: unknown
  try {
    parsed = JSON.parse(body ?? '')
  } catch {
    throw new AppError('bad_request', `the model did not answer with a JSON object: ${text.slice(0, 200)}`)
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new AppError('bad_request', 'the model did not answer with a JSON object')
  const record = parsed as Record<string, unknown>
  // Fields typed "object" or with alternatives ("edit | view_only" + optional action_json) may be absent.
  for (const [field, type] of Object.entries(schema)) {
    if (type === 'string' && typeof record[field] !== 'string')
      throw new AppError('bad_request', `the model's answer lacks "${field}"`)
  }
  return record
}
