import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Out } from '@shared/contract'
import { useApp } from '../../store'
import { Dialog } from '../../ui/Dialog'
import { uploadToImports } from './upload'
import { PersonaOptions } from '../../ui/PersonaOptions'

type Entry = Out<'imports_list'>[number]
type Kind = Entry['kind']
/** What an import or export did; `leftOut` when the lines are what it did not take. */
type Result = { title: string; lines: string[]; leftOut?: boolean }

/**
 * Import and export, from the window: a file the user picks goes into the data folder's
 * imports/ (in pieces, with progress) and is imported from there; every import ends with a
 * report of what came in and what was left out. Exports write the conversation on screen.
 */
export function TransferDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const flowId = useApp((s) => s.flow?.id ?? null)
  const selectedId = useApp((s) => s.selectedId)
  const personas = useApp((s) => s.personas)
  const loadFlows = useApp((s) => s.loadFlows)
  const [entries, setEntries] = useState<Entry[]>([])
  const [sent, setSent] = useState<{ name: string; done: number; total: number } | null>(null)
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<Result | null>(null)
  const [picked, setPicked] = useState('')
  // A persona made since the dialog opened (a card just imported) is there to choose.
  const personaId = picked || (personas[0]?.id ?? '')
  /** What the user chose each file to be, where it differs from the guess. */
  const [chosen, setChosen] = useState<Record<string, Kind>>({})
  const kindOf = (entry: Entry): Kind => chosen[entry.name] ?? (entry.kind === 'unknown' ? 'chatgpt' : entry.kind)

  const reload = useCallback(() => invoke('imports_list', {}).then((l) => l && setEntries(l)), [invoke])
  useEffect(() => {
    void reload()
  }, [reload])

  const upload = async (file: File) => {
    setResult(null)
    const name = await uploadToImports(file, invoke, (done) => setSent({ name: file.name, done, total: file.size }))
    setSent(null)
    if (name) await reload()
  }

  const run = async (entry: Entry, kind: Kind) => {
    setBusy(true)
    setResult(null)
    try {
      if (kind === 'chatgpt') {
        const r = await invoke('chatgpt_import', { path: entry.name })
        if (r)
          setResult({
            title: t('transfer.chatgptDone', { flows: r.flows, nodes: r.nodes }),
            lines: r.skipped.map((s) => `${s.conversation}: ${s.reason}`),
            leftOut: true,
          })
      } else if (kind === 'card') {
        const r = await invoke('character_card_import', { path: entry.name })
        if (r)
          setResult({
            title: t('transfer.cardDone', { name: r.persona.name, greetings: r.greetings }),
            lines: [
              ...(r.avatar ? [t('transfer.cardPicture')] : []),
              ...(r.lorebook_id ? [t('transfer.cardLorebook')] : []),
              ...r.skipped,
            ],
          })
      } else if (kind === 'vizprompt') {
        const r = await invoke('vizprompt_import', { path: entry.name })
        if (r)
          setResult({
            title: t('transfer.vizpromptDone', { flows: r.flows, nodes: r.nodes }),
            lines: r.skipped.map((s) => `${s.file}: ${s.reason}`),
            leftOut: true,
          })
      } else if (kind === 'chat_log') {
        const r = await invoke('memory_import', { persona_id: personaId, path: entry.name })
        if (r)
          setResult({
            title: t('transfer.chatLogDone', { imported: r.imported, skipped: r.skipped }),
            lines: r.errors,
            leftOut: true,
          })
      }
      void loadFlows()
    } finally {
      setBusy(false)
    }
  }

  const exportMarkdown = async () => {
    if (!flowId) return
    const r = await invoke('export_markdown', { flow_id: flowId, ...(selectedId ? { node_id: selectedId } : {}) })
    if (r) setResult({ title: t('transfer.markdownDone', { turns: r.turns }), lines: [r.file] })
  }
  const exportVizprompt = async () => {
    if (!flowId) return
    const r = await invoke('vizprompt_export', { flow_id: flowId })
    if (r) setResult({ title: t('transfer.vizpromptExported', { nodes: r.nodes }), lines: [r.out_dir] })
  }

  return (
    <Dialog title={t('transfer.title')} onClose={onClose}>
      <section className="transfer-section" aria-labelledby="transfer-import">
        <h3 id="transfer-import">{t('transfer.import')}</h3>
        <p className="hint">{t('transfer.importHint')}</p>
        <label className="field">
          {t('transfer.chooseFile')}
          <input
            type="file"
            accept=".json,.jsonl,.txt,.png,.charx"
            disabled={sent !== null || busy}
            onChange={(e) => {
              const file = e.target.files?.[0]
              e.target.value = ''
              if (file) void upload(file)
            }}
          />
        </label>
        {sent && (
          <progress
            aria-label={t('transfer.uploading', { name: sent.name })}
            value={sent.done}
            max={Math.max(1, sent.total)}
          />
        )}
        {entries.length === 0 ? (
          <p className="hint">{t('transfer.empty')}</p>
        ) : (
          <ul className="transfer-list" aria-label={t('transfer.filesLabel')}>
            {entries.map((entry) => (
              <ImportRow
                key={entry.name}
                entry={entry}
                kind={kindOf(entry)}
                busy={busy}
                onKind={(kind) => setChosen((c) => ({ ...c, [entry.name]: kind }))}
                onRun={() => void run(entry, kindOf(entry))}
              />
            ))}
          </ul>
        )}
        {entries.some((e) => kindOf(e) === 'chat_log') && (
          <label className="field">
            {t('transfer.chatLogPersona')}
            <select value={personaId} onChange={(e) => setPicked(e.target.value)}>
              <PersonaOptions />
            </select>
          </label>
        )}
      </section>
      <section className="transfer-section" aria-labelledby="transfer-export">
        <h3 id="transfer-export">{t('transfer.export')}</h3>
        <p className="hint">{selectedId ? t('transfer.exportFromSelected') : t('transfer.exportNewest')}</p>
        <div className="dialog-actions start">
          <button type="button" disabled={!flowId || busy} onClick={() => void exportMarkdown()}>
            {t('transfer.exportMarkdown')}
          </button>
          <button type="button" disabled={!flowId || busy} onClick={() => void exportVizprompt()}>
            {t('transfer.exportVizprompt')}
          </button>
        </div>
      </section>
      {result && (
        <div role="status" className="transfer-result">
          <strong>{result.title}</strong>
          {result.lines.length > 0 && result.leftOut && <p>{t('transfer.leftOut')}</p>}
          {result.lines.length > 0 && (
            <ul>
              {result.lines.slice(0, 50).map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t('transfer.close')}
        </button>
      </div>
    </Dialog>
  )
}

const kinds: Kind[] = ['chatgpt', 'card', 'vizprompt', 'chat_log']

function ImportRow({
  entry,
  kind,
  busy,
  onKind,
  onRun,
}: {
  entry: Entry
  kind: Kind
  busy: boolean
  onKind: (kind: Kind) => void
  onRun: () => void
}) {
  const { t } = useTranslation()
  return (
    <li>
      <span className="transfer-name">{entry.name}</span>
      <select
        aria-label={t('transfer.kindOf', { name: entry.name })}
        value={kind}
        onChange={(e) => onKind(e.target.value as Kind)}
      >
        {kinds.map((k) => (
          <option key={k} value={k}>
            {t(`transfer.kind.${k}`)}
          </option>
        ))}
      </select>
      <button type="button" className="primary" disabled={busy} onClick={onRun}>
        {t('transfer.run', { name: entry.name })}
      </button>
    </li>
  )
}
