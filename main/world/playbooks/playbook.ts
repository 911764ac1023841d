import { z } from 'zod'
import type { PlaybookName } from '@shared/contract'
import documentCreate from '../../../assets/playbooks/document_create_playbook.json'
import itemEdit from '../../../assets/playbooks/item_edit_playbook.json'
import itemView from '../../../assets/playbooks/item_view_playbook.json'

// Playbooks are data (assets/playbooks/*.json), checked against this shape when loaded.

const Next = z.string().nullable()

export const PlaybookNode = z.discriminatedUnion('type', [
  z.object({
    id: z.string(),
    type: z.literal('llm'),
    prompt: z.string(),
    /** The fields the reply's JSON object must have. */
    response_schema: z.record(z.string(), z.string()),
    next: Next,
  }),
  z.object({
    id: z.string(),
    type: z.literal('tool'),
    tool: z.string(),
    args: z.record(z.string(), z.string()),
    next: Next,
  }),
  z.object({
    id: z.string(),
    type: z.literal('router'),
    /** `node.field` whose value picks the route. */
    on: z.string(),
    routes: z.record(z.string(), z.string()),
    default: Next,
  }),
  z.object({ id: z.string(), type: z.literal('memorize'), text: z.string(), next: Next }),
])
export type PlaybookNode = z.infer<typeof PlaybookNode>

export const Playbook = z
  .object({ name: z.string(), description: z.string(), start: z.string(), nodes: z.array(PlaybookNode).min(1) })
  .superRefine((pb, ctx) => {
    const ids = new Set(pb.nodes.map((n) => n.id))
    const targets = [
      pb.start,
      ...pb.nodes.flatMap((n) => (n.type === 'router' ? [...Object.values(n.routes), n.default] : [n.next])),
    ]
    for (const t of targets) if (t !== null && !ids.has(t)) ctx.addIssue({ code: 'custom', message: `no node "${t}"` })
  })
export type Playbook = z.infer<typeof Playbook>

export const playbooks: Record<PlaybookName, Playbook> = {
  item_view_playbook: Playbook.parse(itemView),
  item_edit_playbook: Playbook.parse(itemEdit),
  document_create_playbook: Playbook.parse(documentCreate),
}
