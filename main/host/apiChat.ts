import type { IncomingMessage, ServerResponse } from 'node:http'
import { EXTERNAL_FLOW_NAME, type ApiChatRequest, type EventName, type Flow, type FlowSummary } from '@shared/contract'
import { AppError, type ErrorValue } from '@shared/errors'
import type { EventBus } from '../kernel/events'
import type { CallContext, Router } from '../kernel/router'
import { SseStream } from './sse'

interface Deps {
  router: Router
  bus: EventBus
}

type Call = <T>(method: string, input: unknown) => Promise<T>

/**
 * `POST /api/chat`: one exchange with a persona, streamed as Server-Sent Events — `delta`
 * chunks, then `done` {node_id, unit_id, stats} or `error` {code, message}. It is the chat the
 * UI has (chat_send through the router): the node lands in the flow (the persona's "External"
 * one unless given) and the exchange in the persona's memory. A client that goes away stops the
 * reply; what arrived stays in the node, marked incomplete.
 */
export async function streamChat(deps: Deps, body: ApiChatRequest, req: IncomingMessage, res: ServerResponse) {
  const ctx: CallContext = { transport: 'http' }
  const call: Call = async (method, input) => {
    const r = await deps.router.call(method, input, ctx)
    if (!r.ok) throw new AppError(r.error.code, r.error.message)
    return r.value as never
  }
  // Heard from before the node exists, so no early delta is missed.
  const heard: Array<{ event: EventName; data: unknown }> = []
  let forward: ((event: EventName, data: unknown) => void) | null = null
  const stopListening = deps.bus.listen((event, data) => {
    if (event !== 'node_stream' && event !== 'chat_status') return
    if (forward) forward(event, data)
    else heard.push({ event, data })
  })
  try {
    const flowId = body.flow_id ?? (await externalFlow(call, body.persona_id)).id
    const parentId = body.parent_id ?? newestNode(await call<Flow>('get_flow', { id: flowId }))
    const { node_id: nodeId } = await call<{ node_id: string }>('chat_send', {
      flow_id: flowId,
      prompt: body.text,
      persona_id: body.persona_id,
      ...(parentId ? { parent_id: parentId } : {}),
      ...(body.images ? { images: body.images } : {}),
    })
    const sse = new SseStream(res)
    await new Promise<void>((resolve) => {
      let finished = false
      const finish = () => {
        finished = true
        sse.end()
        resolve()
      }
      res.on('close', () => {
        if (finished) return
        // The client left mid-reply: stop the model; the node keeps what arrived.
        void deps.router.call('chat_stop', { node_id: nodeId }, ctx).then(finish)
      })
      forward = (event, data) => {
        const d = data as { node_id: string; delta?: string; state?: string; unit_id?: number } & Partial<ErrorValue>
        if (d.node_id !== nodeId || finished) return
        if (event === 'node_stream') return sse.send('delta', { text: d.delta })
        if (d.state === 'done') {
          void call<{ metadata: { stats: unknown } }>('get_node', { id: nodeId }).then((node) => {
            sse.send('done', { node_id: nodeId, unit_id: d.unit_id ?? null, stats: node.metadata.stats })
            finish()
          })
        } else if (d.state === 'failed' || d.state === 'stopped') {
          sse.send('error', {
            code: d.code ?? 'llm_aborted',
            message: d.message ?? 'the reply was stopped',
            node_id: nodeId,
          })
          finish()
        }
      }
      for (const h of heard.splice(0)) forward(h.event, h.data)
    })
  } finally {
    stopListening()
  }
}

/** The persona's "External" flow, made (bound to the persona) on first use. */
async function externalFlow(call: Call, personaId: string): Promise<FlowSummary | Flow> {
  const personas = await call<Array<{ id: string; name: string }>>('list_personas', {})
  if (!personas.some((p) => p.id === personaId)) {
    const known = personas.map((p) => `${p.name} (${p.id})`).join(', ') || 'none yet'
    throw new AppError('not_found', `no persona ${personaId}; the personas are: ${known}`)
  }
  const flows = await call<FlowSummary[]>('list_flows', {})
  const found = flows.find((f) => f.name === EXTERNAL_FLOW_NAME && f.persona_id === personaId)
  return found ?? (await call<Flow>('create_flow', { name: EXTERNAL_FLOW_NAME, persona_id: personaId }))
}

/** The node added last, which a program's next message continues; none in an empty flow. */
function newestNode(flow: Flow): string | undefined {
  return flow.nodes.reduce<{ id: string; index: number } | undefined>(
    (newest, m) => (newest && newest.index > m.index ? newest : m),
    undefined,
  )?.id
}
