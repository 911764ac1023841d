import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MemorySensitivity, type MemoryRef, type MemoryUnitDetail } from '@shared/contract'
import { useApp } from '../../store'
import { changedFields, editableFields, formatTime, payloadTexts, reasonKey, shortText } from './memoryText'
import { UnitBadges } from './UnitList'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import './memorySpan.css'

/** One unit: its text, versions, evidence and origin, and what the user can do with it. */
export function UnitDetail() {
  const { t, i18n } = useTranslation()
  const versionReason = (reason: string | null) => {
    if (reason === null) return t('memory.noReason')
    const known = reasonKey(reason)
    if (!known) return reason
    const values = { ...known.values }
    if (values.level) values.level = t(`memory.sensitivity.${values.level}`)
    return t(known.key, values)
  }
  const detail = useApp((s) => s.memoryDetail)
  const open = useApp((s) => s.openMemoryUnit)
  const [editing, setEditing] = useState(false)
  const [confirmDelete, setConfirmDelete] = useState(false)
  if (!detail) return null
  const { unit } = detail
  const time = (epoch: number | null) => formatTime(epoch, i18n.language)

  return (
    <div className="memory-detail" data-testid="memory-detail" data-unit-id={unit.id}>
      <button type="button" className="link memory-back" onClick={() => void open(null)}>
        {t('memory.back')}
      </button>
      <UnitBadges unit={unit} />
      {editing ? (
        <UnitEditor key={unit.id} detail={detail} onDone={() => setEditing(false)} />
      ) : (
        <pre className="memory-text" data-testid="memory-unit-text">
          {unit.text}
        </pre>
      )}
      <dl className="memory-meta">
        {unit.occurred_at !== null && (
          <>
            <dt>{t('memory.occurredAt')}</dt>
            <dd>{time(unit.occurred_at)}</dd>
          </>
        )}
        <dt>{t('memory.updatedAt')}</dt>
        <dd>{time(unit.updated_at)}</dd>
        <dt>{t('memory.versionLabel')}</dt>
        <dd>{unit.version}</dd>
        {unit.source && (
          <>
            <dt>{t('memory.source')}</dt>
            <dd>{t(`memory.sourceOf.${unit.source}`, { defaultValue: unit.source })}</dd>
          </>
        )}
        <dt>{t('memory.scores')}</dt>
        <dd>
          {t('memory.scoreValues', { confidence: unit.confidence.toFixed(2), salience: unit.salience.toFixed(2) })}
        </dd>
        {unit.topic_tags.length > 0 && (
          <>
            <dt>{t('memory.tags')}</dt>
            <dd>{unit.topic_tags.map((tag) => `#${tag}`).join(' ')}</dd>
          </>
        )}
        {unit.emotion_label && (
          <>
            <dt>{t('memory.emotion')}</dt>
            <dd>
              {unit.emotion_label}
              {unit.emotion_intensity !== null && ` (${unit.emotion_intensity.toFixed(2)})`}
            </dd>
          </>
        )}
      </dl>
      {unit.origin_node_id && <GoToNode nodeId={unit.origin_node_id} flowId={unit.origin_flow_id} />}
      {!editing && (
        <UnitActions detail={detail} onEdit={() => setEditing(true)} onDelete={() => setConfirmDelete(true)} />
      )}
      <UnitReach unitId={unit.id} />

      <h3>{t('memory.versions', { count: detail.versions.length })}</h3>
      <ol className="memory-versions" reversed>
        {[...detail.versions].reverse().map((v) => {
          const texts = payloadTexts(unit.kind, v.payload)
          return (
            <li key={v.version} data-testid="memory-version" data-version={v.version}>
              <div className="memory-version-head">
                <strong>v{v.version}</strong>
                <span>{versionReason(v.patch_reason)}</span>
                <span className="memory-unit-time">{time(v.created_at)}</span>
              </div>
              {texts.length > 0 && (
                <details>
                  <summary>{t('memory.showText')}</summary>
                  {texts.map(([field, text]) => (
                    <div key={field} className="memory-field-text">
                      <span className="hint">{t(`memory.field.${field}`)}</span>
                      <pre>{text}</pre>
                    </div>
                  ))}
                </details>
              )}
            </li>
          )
        })}
      </ol>

      {detail.evidence.length > 0 && (
        <>
          <h3>{t('memory.evidence')}</h3>
          <ul className="memory-units">
            {detail.evidence.map((e) => (
              <li key={e.id}>
                <button type="button" className="memory-unit-row" onClick={() => void open(e.id)}>
                  <UnitBadges unit={e} />
                  <span className="memory-unit-text">{shortText(e.text)}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}

      {detail.refs.length > 0 && (
        <>
          <h3>{t('memory.refs')}</h3>
          <ul className="memory-refs">
            {detail.refs.map((r, i) => (
              <li key={i}>
                <RefLink memoryRef={r} />
              </li>
            ))}
          </ul>
        </>
      )}

      {detail.entities.length > 0 && <UnitEntities detail={detail} />}

      {confirmDelete && <DeleteUnit detail={detail} onClose={() => setConfirmDelete(false)} />}
    </div>
  )
}

function UnitActions({
  detail,
  onEdit,
  onDelete,
}: {
  detail: MemoryUnitDetail
  onEdit: () => void
  onDelete: () => void
}) {
  const { t } = useTranslation()
  const pin = useApp((s) => s.pinMemoryUnit)
  const archive = useApp((s) => s.archiveMemoryUnit)
  const setGlobal = useApp((s) => s.setMemoryGlobal)
  const setSensitivity = useApp((s) => s.setMemorySensitivity)
  const { unit } = detail
  const archived = unit.state === 'archived'
  return (
    <div className="memory-actions">
      <button type="button" onClick={onEdit}>
        {t('memory.edit')}
      </button>
      <button type="button" onClick={() => void pin(unit.id, !unit.pin)}>
        {unit.pin ? t('memory.unpin') : t('memory.pin')}
      </button>
      <button type="button" onClick={() => void archive(unit.id, !archived)}>
        {archived ? t('memory.unarchive') : t('memory.archive')}
      </button>
      <button type="button" onClick={() => void setGlobal(unit.id, !unit.global)}>
        {unit.global ? t('memory.makeLocal') : t('memory.makeGlobal')}
      </button>
      <label className="picker">
        <span>{t('memory.sensitivityLabel')}</span>
        <select
          aria-label={t('memory.sensitivityLabel')}
          value={unit.sensitivity}
          onChange={(e) => void setSensitivity(unit.id, e.target.value as MemorySensitivity)}
        >
          {MemorySensitivity.options.map((s) => (
            <option key={s} value={s}>
              {t(`memory.sensitivity.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="danger" onClick={onDelete}>
        {t('memory.delete')}
      </button>
    </div>
  )
}

/** Editing writes a new version; the old text stays readable under Versions. */
function UnitEditor({ detail, onDone }: { detail: MemoryUnitDetail; onDone: () => void }) {
  const { t } = useTranslation()
  const edit = useApp((s) => s.editMemoryUnit)
  const fields = editableFields(detail.unit.kind, detail.payload)
  const [draft, setDraft] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f, typeof detail.payload[f] === 'string' ? detail.payload[f] : ''])),
  )
  const [reason, setReason] = useState('')
  const [saving, setSaving] = useState(false)
  const patch = changedFields(detail.payload, draft)
  const save = async () => {
    if (!patch) return
    setSaving(true)
    const ok = await edit(detail.unit.id, patch, reason)
    setSaving(false)
    if (ok) onDone()
  }
  return (
    <form
      className="memory-editor"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      {fields.map((f) => (
        <label key={f} className="field">
          <span>{t(`memory.field.${f}`)}</span>
          <textarea rows={4} value={draft[f] ?? ''} onChange={(e) => setDraft({ ...draft, [f]: e.target.value })} />
        </label>
      ))}
      <label className="field">
        <span>{t('memory.reason')}</span>
        <input value={reason} placeholder={t('memory.reasonPlaceholder')} onChange={(e) => setReason(e.target.value)} />
      </label>
      <div className="dialog-actions">
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="primary" disabled={!patch || saving}>
          {t('memory.saveVersion')}
        </button>
      </div>
    </form>
  )
}

/** A jump to the node a memory came from; one in another conversation is named by that conversation. */
export function GoToNode({ nodeId, flowId }: { nodeId: string; flowId: string | null | undefined }) {
  const { t } = useTranslation()
  const goToNode = useApp((s) => s.goToNode)
  const index = useApp((s) => (!flowId || flowId === s.flowId ? s.members[nodeId]?.index : undefined))
  const elsewhere = useApp((s) => (flowId && flowId !== s.flowId ? s.flows.find((f) => f.id === flowId)?.name : null))
  return (
    <button type="button" className="memory-go" onClick={() => void goToNode(nodeId, flowId ?? null)}>
      {elsewhere != null
        ? t('memory.goToConversation', { name: elsewhere })
        : index !== undefined
          ? t('memory.goToNodeIndex', { index })
          : t('memory.goToNode')}
    </button>
  )
}

/** Conversations listed before "+N more". */
const REACH_SHOWN = 8

/** Which of the persona's conversations may remember the unit, those it came from first. */
function UnitReach({ unitId }: { unitId: number }) {
  const { t } = useTranslation()
  const reach = useApp((s) => (s.memoryReach?.unitId === unitId ? s.memoryReach.reach : null))
  const [all, setAll] = useState(false)
  if (!reach) return null
  const list = reach.conversations
  const shown = all ? list : list.slice(0, REACH_SHOWN)
  return (
    <section className="memory-reach" data-testid="memory-reach" aria-label={t('memory.reach.title')}>
      <h3>{t('memory.reach.title')}</h3>
      <p className="hint">{t(`memory.reach.rule.${reach.rule}`)}</p>
      {list.length === 0 ? (
        <p className="hint">{t('memory.reach.noConversations')}</p>
      ) : (
        <ul>
          {shown.map((c) => (
            <li key={c.flow_id} data-sees={c.sees} data-testid="memory-reach-conversation">
              <span className="memory-reach-name">{c.name}</span>
              <span>{t(`memory.reach.sees.${c.sees}`)}</span>
              {c.private && <span className="memory-reach-tag">{t('memory.reach.keepsToItself')}</span>}
              {c.sees === 'branch' && c.node_ids[0] && <GoToNode nodeId={c.node_ids[0]} flowId={c.flow_id} />}
            </li>
          ))}
        </ul>
      )}
      {list.length > shown.length && (
        <button type="button" className="link" onClick={() => setAll(true)}>
          {t('memory.reach.more', { count: list.length - shown.length })}
        </button>
      )}
    </section>
  )
}

/** A reference: a graph node to jump to, an evidence unit to open, or an imported message id. */
export function RefLink({ memoryRef }: { memoryRef: MemoryRef }) {
  const { t } = useTranslation()
  const open = useApp((s) => s.openMemoryUnit)
  if (memoryRef.type === 'node') return <GoToNode nodeId={memoryRef.id} flowId={memoryRef.flow_id} />
  if (memoryRef.type === 'evidence') {
    const id = Number(memoryRef.id)
    return (
      <button type="button" className="link" onClick={() => void open(id)}>
        {t('memory.openEvidence', { id })}
      </button>
    )
  }
  return <span className="hint">{t('memory.external', { id: memoryRef.id })}</span>
}

function UnitEntities({ detail }: { detail: MemoryUnitDetail }) {
  const { t } = useTranslation()
  const setFilter = useApp((s) => s.setMemoryFilter)
  return (
    <>
      <h3>{t('memory.entities')}</h3>
      <div className="tag-list">
        {detail.entities.map((e) => (
          <button
            key={`${e.id}-${e.role}`}
            type="button"
            className="tag"
            title={t('memory.unitsOfEntity')}
            onClick={() => void setFilter({ entityId: e.id })}
          >
            {e.name} <span className="count">{e.role}</span>
          </button>
        ))}
      </div>
    </>
  )
}

function DeleteUnit({ detail, onClose }: { detail: MemoryUnitDetail; onClose: () => void }) {
  const { t } = useTranslation()
  const remove = useApp((s) => s.deleteMemoryUnit)
  return (
    <ConfirmDialog
      title={t('memory.deleteTitle')}
      body={t('memory.deleteBody', { text: shortText(detail.unit.text, 80) })}
      action={t('memory.delete')}
      onConfirm={() => void remove(detail.unit.id)}
      onClose={onClose}
    />
  )
}
