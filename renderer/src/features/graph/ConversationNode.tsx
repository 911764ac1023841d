import { Handle, Position, type NodeProps, type Node as FlowNode } from '@xyflow/react'
import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import { useNodeContent } from '../../store/useNodeContent'
import { NodeToolCalls } from '../../ui/NodeToolCalls'
import { MarkdownText } from '../../ui/MarkdownText'
import { llmErrorText } from '@shared/llmErrorText'
import { NodeImages } from '../../ui/NodeImages'
import { SpeakerName } from '../../ui/SpeakerName'

export type ConversationFlowNode = FlowNode<Record<string, never>, 'conversation'>

/** Cards have a fixed size; past this much text they offer to expand. */
const COLLAPSE_CHARS = 160
/** How much of a streaming reply a collapsed card lays out: the newest part, which is what moves. */
const STREAM_TAIL = 400

/**
 * One prompt/response pair on the canvas. It selects only its own node, member entry and
 * path flag from the store, so an edit elsewhere never re-renders it.
 */
export const ConversationNode = memo(function ConversationNode({ id, selected }: NodeProps<ConversationFlowNode>) {
  const { t, i18n } = useTranslation()
  const node = useNodeContent(id)
  const member = useApp((s) => s.members[id])
  const merge = useApp((s) => s.merges[id])
  const onPath = useApp((s) => s.activeIds.has(id))
  const expanded = useApp((s) => s.expandedIds.has(id))
  const toggleExpanded = useApp((s) => s.toggleExpanded)
  const status = useApp((s) => s.replyStatus[id])
  const stopReply = useApp((s) => s.stopReply)
  const continueReply = useApp((s) => s.continueReply)
  if (!node) {
    // A big flow's card whose content is on its way (useNodeContent): its place, index and
    // lines are already right, so nothing moves when the text comes.
    return (
      <div className="conv-node fixed loading" data-node-id={id} data-index={member?.index} aria-busy="true">
        <Handle type="target" position={Position.Top} />
        <div className="conv-node-header">
          <span className="conv-node-index">#{member?.index}</span>
        </div>
        <div className="skeleton-line" />
        <div className="skeleton-line" />
        <div className="skeleton-line short" />
        <Handle type="source" position={Position.Bottom} />
      </div>
    )
  }

  const long = node.prompt.length + node.response.length > COLLAPSE_CHARS
  const stats = node.metadata.stats.assistant
  const classes = [
    'conv-node',
    selected && 'selected',
    onPath && 'on-path',
    long && !expanded && 'collapsed',
    !expanded && 'fixed',
  ]
    .filter(Boolean)
    .join(' ')
  return (
    <div className={classes} data-testid="conv-node" data-node-id={id} data-index={member?.index}>
      <Handle type="target" position={Position.Top} />
      <div className="conv-node-header">
        <span className="conv-node-index">#{member?.index}</span>
        <SpeakerName nodeId={id} className="node-speaker" avatar={16} />
        {node.metadata.model && <span className="conv-node-model">{node.metadata.model}</span>}
        {member?.pinned && <span className="badge badge-pin">{t('graph.pinned')}</span>}
        {merge && (
          <span className="badge badge-merge" data-testid="node-merge">
            {t('graph.merges', { parents: merge })}
          </span>
        )}
        {node.metadata.summary.updated && node.metadata.summary.last_built && (
          <span className="badge badge-stale" title={t('graph.staleHint')}>
            {t('graph.stale')}
          </span>
        )}
        {node.status === 'streaming' && <span className="badge badge-live">{t('graph.streaming')}</span>}
        {node.status === 'incomplete' && <span className="badge badge-stale">{t('graph.incomplete')}</span>}
      </div>
      {node.metadata.images && <NodeImages images={node.metadata.images} />}
      <div className="conv-node-prompt" data-testid="node-prompt">
        {node.prompt}
      </div>
      {node.response &&
        (node.status === 'streaming' ? (
          // Plain text while it streams: re-parsing Markdown on every frame would lag behind the model.
          // A collapsed card shows the newest words, and laying out only those keeps every frame cheap.
          <div
            className="conv-node-response streaming-text"
            data-testid="node-response"
            data-length={node.response.length}
          >
            {expanded || node.response.length <= STREAM_TAIL ? node.response : `…${node.response.slice(-STREAM_TAIL)}`}
          </div>
        ) : (
          <div className="conv-node-response markdown" data-testid="node-response">
            <MarkdownText text={node.response} />
          </div>
        ))}
      <NodeToolCalls nodeId={id} />
      {node.status === 'streaming' && status?.state === 'retrying' && (
        <p className="conv-node-note" role="status">
          {status.message}
        </p>
      )}
      {expanded && node.metadata.summary.text && (
        <p className="conv-node-summary" data-testid="node-summary">
          {node.metadata.summary.text}
        </p>
      )}
      {node.error && (
        <p className="conv-node-error" role="alert" data-testid="node-error">
          {llmErrorText(node.error, i18n.language === 'ja' ? 'ja' : 'en')}
        </p>
      )}
      <div className="conv-node-footer">
        {node.status === 'streaming' && (
          <button type="button" className="nodrag" onClick={() => void stopReply(id)}>
            {t('graph.stop')}
          </button>
        )}
        {(node.status === 'incomplete' || node.status === 'error') && (
          <button type="button" className="nodrag" onClick={() => void continueReply(id)}>
            {node.response ? t('graph.continue') : t('graph.tryAgain')}
          </button>
        )}
        {node.metadata.summary.text && (
          // Built by "Build summaries": the card says so, and the words show on hover or expanded.
          <span className="badge badge-summary" title={node.metadata.summary.text} data-testid="node-summary-badge">
            {t('graph.summarized')}
          </span>
        )}
        {node.metadata.tags.map((tag) => (
          <span key={tag} className="tag">
            #{tag}
          </span>
        ))}
        {stats && (
          <span className="conv-node-stats">
            {t('graph.stats', { count: stats.count, rate: stats.rate.toFixed(1) })}
          </span>
        )}
        {long && (
          <button type="button" className="link nodrag" onClick={() => toggleExpanded(id)}>
            {expanded ? t('graph.collapse') : t('graph.expand')}
          </button>
        )}
      </div>
      <Handle type="source" position={Position.Bottom} />
    </div>
  )
})
