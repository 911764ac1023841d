import { ChevronLeft, ChevronRight, Check, Copy, GitBranch, LocateFixed, Pencil, RefreshCw } from 'lucide-react'
import { memo, useEffect, useState, type MouseEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { llmErrorText } from '@shared/llmErrorText'
import { nodeCommand } from '../../app/commands'
import { useApp, useAppStore } from '../../store'
import { MarkdownText } from '../../ui/MarkdownText'
import { NodeImages } from '../graph/NodeImages'
import { NodeToolCalls } from '../world/NodeToolCalls'

/** Past this many characters a message shows its beginning and offers the rest in place. */
export const LONG_MESSAGE_CHARS = 20_000
const LONG_MESSAGE_PREVIEW = 6_000

interface Props {
  id: string
  /** The node's alternatives (itself included), oldest first. */
  alternatives: readonly string[]
  expanded: boolean
  onToggleExpanded: (id: string) => void
}

/**
 * One turn of the transcript: the user's message and the reply to it, whole. It selects only
 * its own node from the store, so a streaming reply re-renders only its own row.
 */
export const TranscriptTurn = memo(function TranscriptTurn({ id, alternatives, expanded, onToggleExpanded }: Props) {
  const { t, i18n } = useTranslation()
  const store = useAppStore()
  const node = useApp((s) => s.nodes[id])
  const index = useApp((s) => s.members[id]?.index)
  const merge = useApp((s) => s.merges[id])
  const selected = useApp((s) => s.selectedId === id)
  const status = useApp((s) => s.replyStatus[id])
  // The node commands of the graph's menu, one implementation; chosen here, so the transcript stays put.
  const run = (command: string) => {
    store.setState({ choseInTranscript: id })
    nodeCommand(command).run(store.getState(), id)
  }
  if (!node || index === undefined) return null

  const position = alternatives.indexOf(id)
  const streaming = node.status === 'streaming'
  const long = !streaming && node.response.length > LONG_MESSAGE_CHARS
  const response = long && !expanded ? `${node.response.slice(0, LONG_MESSAGE_PREVIEW)}…` : node.response
  const stats = node.metadata.stats.assistant

  // A click on a message (not on a control in it, nor the end of selecting its text) chooses its node.
  const choose = (e: MouseEvent) => {
    if ((e.target as HTMLElement).closest('button, a, summary, details, input, textarea')) return
    if (window.getSelection()?.toString()) return
    store.getState().chooseFromTranscript(id)
  }

  return (
    <div
      className={`turn${selected ? ' selected' : ''}`}
      data-testid="transcript-turn"
      data-node-id={id}
      data-index={index}
      onClick={choose}
    >
      {/* An opening scene or a greeting has no message of the user's: nothing to show or edit. */}
      {(node.prompt || node.metadata.images || alternatives.length > 1) && (
        <article className="msg msg-user" aria-label={t('transcript.userMessage', { index })}>
          {node.metadata.images && <NodeImages images={node.metadata.images} />}
          {node.prompt && (
            <div className="msg-text" data-testid="transcript-prompt">
              {node.prompt}
            </div>
          )}
          <div className="msg-user-actions">
            {alternatives.length > 1 && (
              <div className="alternatives" role="group" aria-label={t('transcript.alternatives', { index })}>
                <button
                  type="button"
                  className="icon"
                  aria-label={t('transcript.previous')}
                  title={t('transcript.previous')}
                  disabled={position <= 0}
                  onClick={() => store.getState().showAlternative(alternatives[position - 1]!)}
                >
                  <ChevronLeft size={16} aria-hidden />
                </button>
                <span data-testid="alternative-position">
                  {t('transcript.position', { current: position + 1, total: alternatives.length })}
                </span>
                <button
                  type="button"
                  className="icon"
                  aria-label={t('transcript.next')}
                  title={t('transcript.next')}
                  disabled={position >= alternatives.length - 1}
                  onClick={() => store.getState().showAlternative(alternatives[position + 1]!)}
                >
                  <ChevronRight size={16} aria-hidden />
                </button>
              </div>
            )}
            <button
              type="button"
              className="icon"
              aria-label={t('transcript.edit')}
              title={t('transcript.editHint')}
              onClick={() => run('node.editPrompt')}
            >
              <Pencil size={15} aria-hidden />
            </button>
          </div>
        </article>
      )}

      <article className="msg msg-reply" aria-label={t('transcript.reply', { index })} aria-busy={streaming}>
        <div className="msg-meta">
          <span className="msg-index">#{index}</span>
          {node.metadata.model && <span className="msg-model">{node.metadata.model}</span>}
          {merge && <span className="badge badge-merge">{t('graph.merges', { parents: merge })}</span>}
          {streaming && <span className="badge badge-live">{t('graph.streaming')}</span>}
          {node.status === 'incomplete' && <span className="badge badge-stale">{t('graph.incomplete')}</span>}
        </div>
        {streaming ? (
          // Plain text while it streams: re-parsing Markdown every frame would lag behind the model.
          <div className="msg-text streaming-text" data-testid="transcript-response">
            {node.response || <span className="msg-thinking">{t('transcript.thinking')}</span>}
          </div>
        ) : (
          node.response && (
            <div className="msg-text markdown" data-testid="transcript-response">
              <MarkdownText text={response} />
            </div>
          )
        )}
        {long && (
          <button type="button" className="link msg-expand" onClick={() => onToggleExpanded(id)}>
            {expanded ? t('transcript.showLess') : t('transcript.showWhole', { count: node.response.length })}
          </button>
        )}
        <NodeToolCalls nodeId={id} />
        {streaming && status?.state === 'retrying' && (
          <p className="msg-note" role="status">
            {status.message}
          </p>
        )}
        {node.error && (
          <p className="msg-error" role="alert">
            {llmErrorText(node.error, i18n.language === 'ja' ? 'ja' : 'en')}
          </p>
        )}
        <div className="msg-actions">
          {streaming && (
            <button type="button" onClick={() => void store.getState().stopReply(id)}>
              {t('graph.stop')}
            </button>
          )}
          {(node.status === 'incomplete' || node.status === 'error') && (
            <button type="button" onClick={() => void store.getState().continueReply(id)}>
              {node.response ? t('graph.continue') : t('graph.tryAgain')}
            </button>
          )}
          <button
            type="button"
            className="icon"
            aria-label={t('transcript.retry')}
            title={t('transcript.retryHint')}
            onClick={() => run('node.retry')}
          >
            <RefreshCw size={15} aria-hidden />
          </button>
          <CopyButton onCopy={() => run('node.copy')} />
          <button
            type="button"
            className="icon"
            aria-label={t('transcript.branchHere')}
            title={t('transcript.branchHereHint')}
            onClick={() => run('node.branchHere')}
          >
            <GitBranch size={15} aria-hidden />
          </button>
          <button
            type="button"
            className="icon"
            aria-label={t('transcript.showInGraph')}
            title={t('transcript.showInGraph')}
            onClick={() => store.getState().showInGraph(id)}
          >
            <LocateFixed size={15} aria-hidden />
          </button>
          {stats && (
            <span className="msg-stats">{t('graph.stats', { count: stats.count, rate: stats.rate.toFixed(1) })}</span>
          )}
        </div>
      </article>
    </div>
  )
})

function CopyButton({ onCopy }: { onCopy: () => void }) {
  const { t } = useTranslation()
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 1500)
    return () => clearTimeout(timer)
  }, [copied])
  const label = copied ? t('transcript.copied') : t('transcript.copy')
  return (
    <button
      type="button"
      className="icon"
      aria-label={label}
      title={t('transcript.copyHint')}
      onClick={() => {
        onCopy()
        setCopied(true)
      }}
    >
      {copied ? <Check size={15} aria-hidden /> : <Copy size={15} aria-hidden />}
    </button>
  )
}
