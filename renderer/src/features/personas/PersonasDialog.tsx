import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { BookMarked, FileArchive, FileDown, IdCard } from 'lucide-react'
import type { Persona } from '@shared/contract'
import { useApp } from '../../store'
import { Combobox, type ComboOption } from '../../ui/Combobox'
import { Dialog } from '../../ui/Dialog'
import { downloadFile } from '../../ui/download'
import { Field } from '../../ui/Field'
import { Menu } from '../../ui/Menu'
import { PrivateMemorySwitch } from '../../ui/PrivateMemorySwitch'
import { defaultEmbeddingModel, MemorySearchField } from '../../ui/MemorySearchField'
import { PersonaPicture } from './PersonaPicture'
import { DeleteInTwoSteps } from '../../ui/DeleteInTwoSteps'
import { DialogCloseRow } from '../../ui/DialogCloseRow'

type Draft = Pick<
  Persona,
  | 'name'
  | 'persona_text'
  | 'contract_text'
  | 'chat_model'
  | 'lightweight_model'
  | 'vision_model'
  | 'lightweight_vision_model'
  | 'embedding_model'
  | 'image_model'
  | 'memory_private'
> & {
  temperature: string
  max_tokens: string
}

const roles = [
  'chat_model',
  'lightweight_model',
  'vision_model',
  'lightweight_vision_model',
  'embedding_model',
  'image_model',
] as const
const blank: Draft = {
  name: '',
  persona_text: '',
  contract_text: '',
  chat_model: null,
  lightweight_model: null,
  vision_model: null,
  lightweight_vision_model: null,
  embedding_model: null,
  image_model: null,
  memory_private: false,
  temperature: '',
  max_tokens: '',
}

/** Models grouped by their provider, the part of the ref before the colon. */
function modelOptions(refs: string[]): ComboOption[] {
  return refs.map((ref) => {
    const at = ref.indexOf(':')
    return { value: ref, label: at > 0 ? ref.slice(at + 1) : ref, group: at > 0 ? ref.slice(0, at) : undefined }
  })
}

/**
 * Create, edit and delete personas: who they are, what they promised, which models play each role.
 * `settingsOf` shows what other features keep per persona (its author's note, its tools) under the
 * form of a saved persona: the app fills it, so this feature imports no other.
 */
export function PersonasDialog({
  onClose,
  settingsOf,
}: {
  onClose: () => void
  settingsOf?: (persona: Persona) => ReactNode
}) {
  const { t } = useTranslation()
  const personas = useApp((s) => s.personas)
  const invoke = useApp((s) => s.invoke)
  const [selected, setSelected] = useState<string | 'new'>(personas[0]?.id ?? 'new')
  const [models, setModels] = useState<string[]>([])
  const current = personas.find((p) => p.id === selected)

  useEffect(() => {
    void invoke('list_models', {}).then((r) => r && setModels(r.models.map((m) => m.ref)))
  }, [invoke])

  return (
    <Dialog title={t('persona.title')} onClose={onClose}>
      <div className="personas">
        <ul className="persona-list" aria-label={t('persona.list')}>
          {personas.map((p) => (
            <li key={p.id}>
              <button type="button" aria-current={p.id === selected} onClick={() => setSelected(p.id)}>
                {p.name}
              </button>
            </li>
          ))}
          <li>
            <button type="button" aria-current={selected === 'new'} onClick={() => setSelected('new')}>
              + {t('persona.new')}
            </button>
          </li>
        </ul>
        {/* Made again when the persona's stored version changes (a save landed): a form opened
            before its own save came back showed the values from before it, and kept them. */}
        <PersonaForm
          key={`${selected}|${current?.updated ?? ''}`}
          models={models}
          persona={current ?? null}
          onSaved={(id) => setSelected(id)}
          onDeleted={() => setSelected(personas.find((p) => p.id !== selected)?.id ?? 'new')}
          settings={current && settingsOf?.(current)}
        />
      </div>
      <DialogCloseRow onClose={onClose} />
    </Dialog>
  )
}

function PersonaForm({
  persona,
  models,
  onSaved,
  onDeleted,
  settings,
}: {
  persona: Persona | null
  /** `provider:model` refs every configured provider lists, for the role pickers. */
  models: string[]
  onSaved: (id: string) => void
  onDeleted: () => void
  settings?: ReactNode
}) {
  const { t, i18n } = useTranslation()
  const rememberPersona = useApp((s) => s.rememberPersona)
  const invoke = useApp((s) => s.invoke)
  const [draft, setDraft] = useState<Draft>(
    persona
      ? {
          ...persona,
          temperature: persona.temperature?.toString() ?? '',
          max_tokens: persona.max_tokens?.toString() ?? '',
        }
      : { ...blank, embedding_model: defaultEmbeddingModel(i18n.resolvedLanguage) },
  )
  const options = useMemo(() => modelOptions(models), [models])
  const field = (key: Exclude<keyof Draft, 'memory_private'>) => ({
    value: draft[key] ?? '',
    onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value })),
  })
  const save = async () => {
    const fields = {
      name: draft.name.trim(),
      persona_text: draft.persona_text,
      contract_text: draft.contract_text,
      ...Object.fromEntries(roles.map((r) => [r, draft[r]?.trim() || null])),
      temperature: draft.temperature.trim() === '' ? null : Number(draft.temperature),
      max_tokens: draft.max_tokens.trim() === '' ? null : Number(draft.max_tokens),
      memory_private: draft.memory_private,
    }
    const saved = persona
      ? await invoke('update_persona', { id: persona.id, ...fields })
      : await invoke('create_persona', fields)
    // A persona just made is the one the next conversation starts with.
    if (saved && !persona) rememberPersona(saved.id)
    if (saved) onSaved(saved.id)
  }
  const openModal = useApp((s) => s.openModal)
  const exportCard = async (id: string, format: 'png' | 'charx') => {
    const card = await invoke('character_card_export', { persona_id: id, format })
    if (!card) return
    downloadFile(
      card.file_name,
      Uint8Array.from(atob(card.data_base64), (c) => c.charCodeAt(0)),
      format === 'png' ? 'image/png' : 'application/zip',
    )
  }
  return (
    <form
      className="persona-form"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <div className="persona-head">
        {persona && <PersonaPicture personaId={persona.id} name={persona.name} updated={persona.updated} />}
        <label className="field">
          {t('persona.name')}
          <input {...field('name')} />
        </label>
      </div>
      <label className="field">
        {t('persona.personaText')}
        <textarea rows={4} {...field('persona_text')} placeholder={t('persona.personaPlaceholder')} />
      </label>
      <label className="field">
        {t('persona.contractText')}
        <textarea rows={3} {...field('contract_text')} placeholder={t('persona.contractPlaceholder')} />
      </label>
      <fieldset className="model-roles">
        <legend>{t('persona.models')}</legend>
        <p className="hint">{t('persona.modelsHint')}</p>
        {roles
          .filter((role) => role !== 'embedding_model')
          .map((role) => (
            <Field key={role} label={t(`persona.role.${role}`)}>
              <Combobox
                value={draft[role] ?? ''}
                onChange={(value) => setDraft((d) => ({ ...d, [role]: value }))}
                options={options}
                placeholder="provider:model"
                emptyText={t('shell.noModelMatch')}
              />
            </Field>
          ))}
        <MemorySearchField
          value={draft.embedding_model}
          saved={persona?.embedding_model}
          onChange={(model) => setDraft((d) => ({ ...d, embedding_model: model }))}
        />
        <label className="field">
          {t('persona.temperature')}
          <input inputMode="decimal" {...field('temperature')} placeholder="0 – 2" />
        </label>
        <label className="field">
          {t('persona.maxTokens')}
          <input inputMode="numeric" {...field('max_tokens')} />
        </label>
      </fieldset>
      <PrivateMemorySwitch
        label={t('memory.private.persona')}
        hint={t('memory.private.personaHint')}
        checked={draft.memory_private}
        onChange={(memory_private) => setDraft((d) => ({ ...d, memory_private }))}
      />
      {settings}
      <div className="dialog-actions">
        {persona && (
          <Menu
            label={t('persona.cardMenu')}
            icon={IdCard}
            align="start"
            items={[
              {
                id: 'lorebooks',
                label: t('persona.lorebooks'),
                icon: BookMarked,
                onSelect: () => openModal({ name: 'lorebooks' }),
              },
              'separator',
              {
                id: 'png',
                label: t('persona.exportCard'),
                icon: FileDown,
                onSelect: () => void exportCard(persona.id, 'png'),
              },
              {
                id: 'charx',
                label: t('persona.exportCharx'),
                icon: FileArchive,
                onSelect: () => void exportCard(persona.id, 'charx'),
              },
            ]}
          />
        )}
        <span className="spacer" />
        {persona && (
          <DeleteInTwoSteps
            key={persona.id}
            label={t('graph.delete')}
            confirmLabel={t('persona.confirmDelete', { name: persona.name })}
            onDelete={() => void invoke('delete_persona', { id: persona.id }).then((r) => r && onDeleted())}
          />
        )}
        <button type="submit" className="primary" disabled={!draft.name.trim()}>
          {persona ? t('common.save') : t('persona.create')}
        </button>
      </div>
    </form>
  )
}
