import {
  Check,
  ChevronLeft,
  ChevronRight,
  Copy,
  GitBranch,
  LocateFixed,
  Pencil,
  RefreshCw,
  RotateCcw,
  Square,
  StepForward,
} from 'lucide-react'
import { memo, useEffect, useState, type MouseEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { llmErrorText } from '@shared/llmErrorText'
import { nodeCommand } from '../../store/commands'
import { useApp, useAppStore } from '../../store'
import { useNodeContent } from '../../store/useNodeContent'
import { Button, IconButton } from '../../ui/Button'
import { MarkdownText } from '../../ui/MarkdownText'
import { NodeImages } from '../../ui/NodeImages'
import { NodeToolCalls } from '../../ui/NodeToolCalls'
import { McpToolCalls } from './McpToolCalls'
import { SpeakerName } from '../../ui/SpeakerName'
import { RetryAs } from './RetryAs'

/** Past this many characters a message shows its beginning and offers the rest in place. */
export const LONG_MESSAGE_CHARS = 20_000
const LONG_MESSAGE_PREVIEW = 6_000

interface Props {
  id: string
  /** The node's alternatives (itself included), oldest first. */
  alternatives: readonly string[]
  /** The last turn of the transcript: → on its last alternative makes a new one (a swipe). */
  last?: boolean
  expanded: boolean
  onToggleExpanded: (id: string) => void
}

/**
 * One turn of the transcript: the user's message and the reply to it, whole. It selects only
 * its own node from the store, so a streaming reply re-renders only its own row.
 */
export const TranscriptTurn = memo(function TranscriptTurn({
  id,
  alternatives,
  last = false,
  expanded,
  onToggleExpanded,
}: Props) {
  const { t, i18n } = useTranslation()
  const store = useAppStore()
  const node = useNodeContent(id)
  const index = useApp((s) => s.members[id]?.index)
  const merge = useApp((s) => s.merges[id])
  const selected = useApp((s) => s.selectedId === id)
  const status = useApp((s) => s.replyStatus[id])
  // The node commands of the graph's menu, one implementation; chosen here, so the transcript stays put.
  const run = (command: string) => {
    store.setState({ choseInTranscript: id })
    nodeCommand(command).run(store.getState(), id)
  }
  if (index === undefined) return null
  if (!node) {
    // A turn of a big flow whose text is on its way (useNodeContent).
    return (
      <div className="turn turn-loading" data-node-id={id} aria-busy="true">
        <div className="skeleton-line" />
        <div className="skeleton-line short" />
      </div>
    )
  }

  const position = alternatives.indexOf(id)
  const streaming = node.status === 'streaming'
  const long = !streaming && node.response.length > LONG_MESSAGE_CHARS
  const response = long && !expanded ? `${node.response.slice(0, LONG_MESSAGE_PREVIEW)}…` : node.response
  const stats = node.metadata.stats.assistant
  // As roleplayers expect: → past the last alternative of the last reply asks for another one.
  const swipe = last && position === alternatives.length - 1 && !streaming

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
      {(node.prompt || node.metadata.images || alternatives.length > 1 || swipe) && (
        <article className="msg msg-user" aria-label={t('transcript.userMessage', { index })}>
          {node.metadata.images && <NodeImages images={node.metadata.images} />}
          {node.prompt && (
            <div className="msg-text" data-testid="transcript-prompt">
              {node.prompt}
            </div>
          )}
          <div className="msg-user-actions">
            {(alternatives.length > 1 || swipe) && (
              <div className="alternatives" role="group" aria-label={t('transcript.alternatives', { index })}>
                <IconButton
                  size="sm"
                  className="msg-icon"
                  label={t('transcript.previous')}
                  icon={ChevronLeft}
                  disabled={position <= 0}
                  onClick={() => store.getState().showAlternative(alternatives[position - 1]!)}
                />
                <span data-testid="alternative-position">
                  {t('transcript.position', { current: position + 1, total: alternatives.length })}
                </span>
                <IconButton
                  size="sm"
                  className="msg-icon"
                  label={swipe ? t('transcript.swipe') : t('transcript.next')}
                  icon={ChevronRight}
                  disabled={position >= alternatives.length - 1 && !swipe}
                  onClick={() =>
                    swipe ? run('node.retry') : store.getState().showAlternative(alternatives[position + 1]!)
                  }
                />
              </div>
            )}
            <IconButton
              size="sm"
              className="msg-icon"
              label={t('transcript.edit')}
              hint={t('transcript.editHint')}
              icon={Pencil}
              onClick={() => run('node.editPrompt')}
            />
          </div>
        </article>
      )}

      <article className="msg msg-reply" aria-label={t('transcript.reply', { index })} aria-busy={streaming}>
        <div className="msg-meta">
          <SpeakerName nodeId={id} className="msg-speaker" avatar={22} />
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
        <McpToolCalls nodeId={id} />
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
            <Button size="sm" icon={Square} onClick={() => void store.getState().stopReply(id)}>
              {t('graph.stop')}
            </Button>
          )}
          {(node.status === 'incomplete' || node.status === 'error') && (
            <Button
              size="sm"
              icon={node.response ? StepForward : RotateCcw}
              onClick={() => void store.getState().continueReply(id)}
            >
              {node.response ? t('graph.continue') : t('graph.tryAgain')}
            </Button>
          )}
          <IconButton
            size="sm"
            className="msg-icon"
            label={t('transcript.retry')}
            hint={t('transcript.retryHint')}
            icon={RefreshCw}
            onClick={() => run('node.retry')}
          />
          <RetryAs nodeId={id} />
          <CopyButton onCopy={() => run('node.copy')} />
          <IconButton
            size="sm"
            className="msg-icon"
            label={t('transcript.branchHere')}
            hint={t('transcript.branchHereHint')}
            icon={GitBranch}
            onClick={() => run('node.branchHere')}
          />
          <IconButton
            size="sm"
            className="msg-icon"
            label={t('transcript.showInGraph')}
            icon={LocateFixed}
            onClick={() => store.getState().showInGraph(id)}
          />
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
    <IconButton
      size="sm"
      className="msg-icon"
      label={label}
      hint={t('transcript.copyHint')}
      icon={copied ? Check : Copy}
      onClick={() => {
        onCopy()
        setCopied(true)
      }}
    />
  )
}
