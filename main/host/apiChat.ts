import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ApiChatRequest, EventName } from '@shared/contract'
import { AppError, toErrorValue, type ErrorValue } from '@shared/errors'
import type { EventBus } from '../kernel/events'
import type { CallContext, Router } from '../kernel/router'
import { SseStream } from './sse'
import type { TurnsByKey } from './turnsByKey'

interface Deps {
  router: Router
  bus: EventBus
  /** Calls that continue the same conversation take its tail one after another. */
  turns: TurnsByKey
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
  // The stream starts with the reply's first text, which chat hands over before it writes the
  // node (CallContext.firstText), or once chat_send has answered, whichever comes first. That
  // text comes again as the node's first `node_stream`, which is then not sent twice.
  const opened: { sse: SseStream | null; textAhead: boolean } = { sse: null, textAhead: false }
  const ctx: CallContext = {
    transport: 'http',
    firstText: (text) => {
      opened.sse ??= new SseStream(res)
      opened.sse.send('delta', { text })
      opened.textAhead = true
    },
  }
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
    const send = async () => {
      // One indexed lookup: where the message goes and what it continues.
      const target =
        body.flow_id && body.parent_id
          ? { flow_id: body.flow_id, parent_id: body.parent_id }
          : await call<{ flow_id: string; parent_id: string | null }>('chat_target', {
              persona_id: body.persona_id,
              ...(body.flow_id ? { flow_id: body.flow_id } : {}),
            })
      const parentId = body.parent_id ?? target.parent_id
      return call<{ node_id: string }>('chat_send', {
        flow_id: target.flow_id,
        prompt: body.text,
        persona_id: body.persona_id,
        ...(parentId ? { parent_id: parentId } : {}),
        ...(body.images ? { images: body.images } : {}),
      })
    }
    // A call naming its parent continues nothing but that node; the others continue the tail,
    // which the call before must have written first (chat_send answers once the node is written).
    let nodeId: string
    try {
      ;({ node_id: nodeId } =
        body.flow_id && body.parent_id
          ? await send()
          : await deps.turns.run(`${body.flow_id ?? ''}|${body.persona_id ?? ''}`, send))
    } catch (e) {
      if (!opened.sse) throw e // refused before any text: answered as an error (httpApi)
      // The first text went out, then its node could not be written: the stream says why.
      const failure = toErrorValue(e)
      opened.sse.send('error', { code: failure.code, message: failure.message })
      opened.sse.end()
      return
    }
    const sse = (opened.sse ??= new SseStream(res))
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
        if (event === 'node_stream') {
          if (!opened.textAhead) return sse.send('delta', { text: d.delta })
          opened.textAhead = false // the text firstText sent already
          return
        }
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
