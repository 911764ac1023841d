import type { chatMethods } from '@shared/contract'
import type { GraphService } from '../graph/graphService'
import type { HandlerModule } from '../kernel/router'
import type { ChatService } from './chatService'

export function chatHandlers(chat: ChatService, graph: GraphService): HandlerModule<typeof chatMethods> {
  return {
    chat_send: (i, ctx) => chat.send(i, ctx.firstText),
    chat_next_speaker: (i) => chat.nextSpeaker(i),
    chat_stop: (i) => chat.stop(i.node_id),
    chat_retry: (i) => chat.retry(i),
    chat_continue: (i) => chat.continue(i),
    get_sent_context: (i) => graph.sentContext(i.node_id),
    build_context: (i) => chat.previewContext(i),
  }
}
