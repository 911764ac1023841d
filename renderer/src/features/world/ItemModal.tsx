import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { DocumentVersion, Item, ItemContent } from '@shared/contract'
import { useApp } from '../../store'
import { Dialog } from '../../ui/Dialog'
import { DeleteItemConfirm, ItemActions } from './ItemActions'
import { ItemIcon } from './ItemIcon'
import { MarkdownText } from '../../ui/MarkdownText'

/** The open item: a zoomable picture, a document with edit/append/history, or an object that cannot be viewed. */
export function ItemModal() {
  const id = useApp((s) => s.openItemId)
  const item = useApp((s) => s.hereItems.find((i) => i.id === s.openItemId) ?? null)
  const openItem = useApp((s) => s.openItem)
  const close = useCallback(() => openItem(null), [openItem])
  if (!id || !item) return null
  return <OpenItem key={item.id} item={item} onClose={close} />
}

/** The item's dialog, or the delete question in its place: one dialog at a time, so Escape closes only that one. */
function OpenItem({ item, onClose }: { item: Item; onClose: () => void }) {
  const [confirming, setConfirming] = useState(false)
  const ask = useCallback(() => setConfirming(true), [])
  const back = useCallback(() => setConfirming(false), [])
  return confirming ? (
    <DeleteItemConfirm item={item} onClose={back} />
  ) : (
    <ItemDialog item={item} onClose={onClose} onDelete={ask} />
  )
}

function ItemDialog({ item, onClose, onDelete }: { item: Item; onClose: () => void; onDelete: () => void }) {
  const { t } = useTranslation()
  return (
    <Dialog title={item.name} onClose={onClose}>
      <div className="item-modal" data-item-type={item.type}>
        <p className="item-modal-kind">
          <ItemIcon type={item.type} label={t(`world.type.${item.type}`)} /> {t(`world.type.${item.type}`)}
        </p>
        {item.type === 'object' ? (
          <>
            <p className="item-not-viewable" role="note">
              {t('world.notViewable')}
            </p>
            <p className="item-summary">{item.description}</p>
          </>
        ) : (
          <ItemBody item={item} />
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            {t('world.close')}
          </button>
        </div>
        {/* Last in the dialog, so the focus that opens on its first button never lands on Move or Delete. */}
        <ItemActions item={item} onDelete={onDelete} />
      </div>
    </Dialog>
  )
}

/**
 * The description, and the summary a background job writes: in a slot of its own, two lines
 * tall from the start (clamped to them, the whole on hover or a click), so its arrival never
 * moves the buttons below while the user is reaching for one.
 */
function Summary({ item }: { item: Item }) {
  const { t } = useTranslation()
  const [expanded, setExpanded] = useState(false)
  const status = item.summary_status
  return (
    <div className="item-summary" data-testid="item-summary">
      <span>{item.description || t('world.noDescription')}</span>
      {(item.summary || status === 'pending' || status === 'failed') && (
        <p className="item-auto-summary-slot" aria-live="polite">
          {item.summary ? (
            <button
              type="button"
              className={`item-auto-summary${expanded ? ' expanded' : ''}`}
              data-testid="item-auto-summary"
              title={expanded ? undefined : item.summary}
              aria-expanded={expanded}
              onClick={() => setExpanded(!expanded)}
            >
              {t('world.autoSummary')}: {item.summary}
            </button>
          ) : status === 'pending' ? (
            <span className="badge badge-live">{t('world.summarising')}</span>
          ) : (
            <span className="badge badge-stale">{t('world.summaryFailed')}</span>
          )}
        </p>
      )}
    </div>
  )
}

function ItemBody({ item }: { item: Item }) {
  const invoke = useApp((s) => s.invoke)
  const [content, setContent] = useState<ItemContent | null>(null)
  // Reload when the item changes (a patch, a revert): `updated` moves with every write.
  useEffect(() => {
    let live = true
    void invoke('item_view', { item_id: item.id }).then((c) => live && setContent(c))
    return () => {
      live = false
    }
  }, [invoke, item.id, item.updated])
  return (
    <>
      <Summary item={item} />
      {/* Read while the dialog opens, into a frame of the size it will have: nothing below it moves when it comes. */}
      {item.type === 'document' ? (
        <DocumentEditor item={item} text={content?.kind === 'document' ? content.text : null} />
      ) : (
        <Picture picture={content?.kind === 'picture' ? content : null} name={item.name} />
      )}
    </>
  )
}

/** `picture` is null while it is read. */
function Picture({ picture, name }: { picture: { mime: string; data_base64: string } | null; name: string }) {
  const { t } = useTranslation()
  const [zoomed, setZoomed] = useState(false)
  return (
    <div className={`item-picture${zoomed ? ' zoomed' : ''}`}>
      <button
        type="button"
        className="link"
        aria-pressed={zoomed}
        disabled={!picture}
        onClick={() => setZoomed(!zoomed)}
      >
        {zoomed ? t('world.zoomOut') : t('world.zoomIn')}
      </button>
      <div className="item-picture-frame" aria-busy={!picture}>
        {/* A data URL: the CSP allows it, and no file:// path ever reaches the page. */}
        {picture && (
          <img
            src={`data:${picture.mime};base64,${picture.data_base64}`}
            alt={name}
            onClick={() => setZoomed(!zoomed)}
          />
        )}
      </div>
    </div>
  )
}

type Mode = 'read' | 'edit' | 'append' | 'history'

/** `text` is null while it is read. */
function DocumentEditor({ item, text }: { item: Item; text: string | null }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const [mode, setMode] = useState<Mode>('read')
  const [draft, setDraft] = useState('')
  const start = (next: Mode) => {
    setMode(next)
    setDraft(next === 'edit' ? (text ?? '') : '')
  }
  const save = async () => {
    const ok =
      mode === 'edit'
        ? await invoke('document_write', { item_id: item.id, content: draft })
        : await invoke('item_use', {
            item_id: item.id,
            action_json: JSON.stringify({ action_type: 'patch_content', patch: draft }),
          })
    if (ok) setMode('read')
  }
  return (
    <div className="item-document">
      <div className="item-document-tabs" role="toolbar">
        {(['read', 'edit', 'append', 'history'] as const).map((m) => (
          <button
            key={m}
            type="button"
            aria-pressed={mode === m}
            disabled={m === 'edit' && text === null}
            onClick={() => start(m)}
          >
            {t(`world.mode.${m}`)}
          </button>
        ))}
      </div>
      {mode === 'read' && (
        <div className="item-document-text markdown" data-testid="document-text" aria-busy={text === null}>
          {text !== null && <MarkdownText text={text} />}
        </div>
      )}
      {(mode === 'edit' || mode === 'append') && (
        <>
          <textarea
            aria-label={mode === 'edit' ? t('world.editLabel') : t('world.appendLabel')}
            rows={12}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
          <div className="dialog-actions">
            <button type="button" onClick={() => setMode('read')}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="primary"
              disabled={mode === 'append' ? !draft.trim() : draft === text}
              onClick={() => void save()}
            >
              {mode === 'edit' ? t('common.save') : t('world.append')}
            </button>
          </div>
        </>
      )}
      {mode === 'history' && <History item={item} onReverted={() => setMode('read')} />}
    </div>
  )
}

function History({ item, onReverted }: { item: Item; onReverted: () => void }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const personas = useApp((s) => s.personas)
  const [versions, setVersions] = useState<DocumentVersion[]>([])
  const [shown, setShown] = useState<{ version: number; content: string } | null>(null)
  useEffect(() => {
    void invoke('list_document_versions', { item_id: item.id }).then((v) => v && setVersions(v))
  }, [invoke, item.id, item.updated])
  const who = (author: string) =>
    author === 'user'
      ? t('world.byUser')
      : author === 'system'
        ? t('world.bySystem')
        : (personas.find((p) => p.id === author)?.name ?? author)
  const latest = versions[0]?.version
  return (
    <div className="item-history">
      <ol>
        {versions.map((v) => (
          <li key={v.version}>
            <button
              type="button"
              className="link"
              onClick={() =>
                void invoke('get_document_version', { item_id: item.id, version: v.version }).then(
                  (full) => full && setShown({ version: full.version, content: full.content }),
                )
              }
            >
              {t('world.versionLine', { version: v.version, who: who(v.author), action: v.action, chars: v.chars })}
            </button>
            <time>{v.created.slice(0, 19).replace('T', ' ')}</time>
          </li>
        ))}
      </ol>
      {shown && (
        <div className="item-history-version">
          <pre className="item-document-text">{shown.content}</pre>
          {shown.version !== latest && (
            <button
              type="button"
              className="primary"
              onClick={() =>
                void invoke('revert_document', { item_id: item.id, version: shown.version }).then(
                  (ok) => ok && onReverted(),
                )
              }
            >
              {t('world.revert', { version: shown.version })}
            </button>
          )}
        </div>
      )}
    </div>
  )
}
