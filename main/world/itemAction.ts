import { z } from 'zod'
import { AppError } from '@shared/errors'

/** The seed's `action_json` for `item_use`, checked before anything is touched. */
export const ItemAction = z.discriminatedUnion('action_type', [
  z.object({ action_type: z.literal('update_description'), description: z.string().trim().min(1).max(10_000) }),
  z.object({ action_type: z.literal('patch_content'), patch: z.string().min(1).max(2_000_000) }),
])
export type ItemAction = z.infer<typeof ItemAction>

export function parseItemAction(actionJson: string): ItemAction {
  let raw: unknown
  try {
    raw = JSON.parse(actionJson)
  } catch (e) {
    throw new AppError(
      'bad_input',
      `action_json is not valid JSON (${e instanceof Error ? e.message : String(e)}); write e.g. {"action_type":"update_description","description":"…"}`,
    )
  }
  const parsed = ItemAction.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const where = issue.path.length > 0 ? issue.path.join('.') : 'action_json'
    const hint = where === 'action_type' ? ' (use "update_description" or "patch_content")' : ''
    throw new AppError('bad_input', `action_json: ${where}: ${issue.message}${hint}`)
  }
  return parsed.data
}
