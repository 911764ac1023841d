import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LoreBook, LoreBookSummary, LoreEntry, LoreTargetKind } from '@shared/contract'
import { useApp } from '../../store'
import { Dialog } from '../../ui/Dialog'
import { downloadFile } from '../../ui/download'
import { AuthorsNoteForm } from './AuthorsNoteForm'
import { EntryForm } from './EntryForm'
import './lorebooks.css'
import { DeleteInTwoSteps } from '../../ui/DeleteInTwoSteps'
import { DialogCloseRow } from '../../ui/DialogCloseRow'

/**
 * Lorebooks (SillyTavern's World Info): the books, what each is attached to, their entries,
 * and the open conversation's Author's Note. A book comes from a file (World Info JSON, a
 * card's book, NovelAI's .lorebook) or is made here.
 */
export function LorebooksDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const flow = useApp((s) => s.flow)
  const [books, setBooks] = useState<LoreBookSummary[]>([])
  const [book, setBook] = useState<LoreBook | null>(null)
  const [entryUid, setEntryUid] = useState<number | null>(null)

  const reload = useCallback(async () => {
    const list = await invoke('list_lorebooks', {})
    if (list) setBooks(list)
  }, [invoke])
  useEffect(() => {
    void invoke('list_lorebooks', {}).then((list) => list && setBooks(list))
  }, [invoke])

  const open = async (id: string) => {
    const b = await invoke('get_lorebook', { id })
    if (b) {
      setBook(b)
      setEntryUid(b.entries[0]?.uid ?? null)
    }
  }
  const changed = (b: LoreBook | null | undefined) => {
    if (!b) return
    setBook(b)
    void reload()
  }
  const create = async () => {
    const b = await invoke('create_lorebook', { name: t('lore.untitled') })
    if (b) changed(b)
  }
  const importFile = async (file: File) => {
    const b = await invoke('import_lorebook', { name: file.name, text: await file.text() })
    if (b) {
      changed(b)
      setEntryUid(b.entries[0]?.uid ?? null)
    }
  }
  const entry = book?.entries.find((e) => e.uid === entryUid) ?? null

  return (
    <Dialog title={t('lore.title')} onClose={onClose}>
      <div className="lorebooks">
        <nav className="lore-books" aria-label={t('lore.books')}>
          <ul>
            {books.map((b) => (
              <li key={b.id}>
                <button type="button" aria-current={b.id === book?.id} onClick={() => void open(b.id)}>
                  {b.name} <span className="hint">{t('lore.entryCount', { count: b.entry_count })}</span>
                </button>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => void create()}>
            + {t('lore.newBook')}
          </button>
          <label className="button-like">
            {t('lore.importBook')}
            <input
              type="file"
              accept=".json,.lorebook,application/json"
              className="visually-hidden"
              aria-label={t('lore.importBook')}
              onChange={(e) => {
                const file = e.target.files?.[0]
                e.target.value = ''
                if (file) void importFile(file)
              }}
            />
          </label>
        </nav>
        {book ? (
          <section className="lore-book" aria-label={book.name}>
            <BookHeader book={book} onChanged={changed} onDeleted={() => (setBook(null), void reload())} />
            <div className="lore-entries">
              <ul aria-label={t('lore.entries')}>
                {book.entries.map((e) => (
                  <li key={e.uid}>
                    <button type="button" aria-current={e.uid === entryUid} onClick={() => setEntryUid(e.uid)}>
                      {e.comment || e.keys.join(', ') || `#${e.uid}`}
                      {!e.enabled && <span className="hint"> {t('lore.off')}</span>}
                    </button>
                  </li>
                ))}
                <li>
                  <button
                    type="button"
                    onClick={() =>
                      void invoke('create_lore_entry', { book_id: book.id, comment: t('lore.newEntry') }).then((b) => {
                        changed(b)
                        if (b) setEntryUid(b.entries.at(-1)?.uid ?? null)
                      })
                    }
                  >
                    + {t('lore.newEntry')}
                  </button>
                </li>
              </ul>
              {entry && (
                <EntryForm
                  key={`${book.id}:${entry.uid}:${book.updated}`}
                  entry={entry}
                  skippedKeys={book.skipped_keys?.filter((k) => k.uid === entry.uid).map((k) => k.key)}
                  onSave={(fields: Partial<LoreEntry>) =>
                    invoke('update_lore_entry', { book_id: book.id, uid: entry.uid, ...fields }).then(changed)
                  }
                  onDelete={() =>
                    invoke('delete_lore_entry', { book_id: book.id, uid: entry.uid }).then((b) => {
                      changed(b)
                      setEntryUid(b?.entries[0]?.uid ?? null)
                    })
                  }
                />
              )}
            </div>
          </section>
        ) : (
          <p className="hint lore-empty">{t('lore.pick')}</p>
        )}
      </div>
      {flow && <AuthorsNoteForm kind="flow" targetId={flow.id} />}
      <DialogCloseRow onClose={onClose} />
    </Dialog>
  )
}

function BookHeader({
  book,
  onChanged,
  onDeleted,
}: {
  book: LoreBook
  onChanged: (b: LoreBook | null | undefined) => void
  onDeleted: () => void
}) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const flow = useApp((s) => s.flow)
  const story = useApp((s) => s.story)
  const personas = useApp((s) => s.personas)
  const [name, setName] = useState(book.name)
  // Every persona can be chosen, the open conversation's first; then the open conversation and story.
  const targets: { kind: LoreTargetKind; id: string; label: string }[] = [
    { kind: 'global', id: '', label: t('lore.attachGlobal') },
    ...(flow ? [{ kind: 'flow' as const, id: flow.id, label: t('lore.attachFlow') }] : []),
    ...(story ? [{ kind: 'story' as const, id: story.id, label: t('lore.attachStory', { name: story.name }) }] : []),
  ]
  const personaTargets = [...personas]
    .sort((a, b) => Number(b.id === flow?.persona_id) - Number(a.id === flow?.persona_id))
    .map((p) => ({ kind: 'persona' as const, id: p.id, label: t('lore.attachPersona', { name: p.name }) }))
  const attached = (kind: LoreTargetKind, id: string) =>
    book.attachments.some((a) => a.kind === kind && a.target_id === id)
  const toggle = (target: { kind: LoreTargetKind; id: string; label: string }) => (
    <label key={`${target.kind}:${target.id}`} className="inline">
      <input
        type="checkbox"
        checked={attached(target.kind, target.id)}
        onChange={(e) =>
          void invoke(e.target.checked ? 'attach_lorebook' : 'detach_lorebook', {
            book_id: book.id,
            kind: target.kind,
            target_id: target.id,
          }).then(onChanged)
        }
      />
      {target.label}
    </label>
  )
  const exportBook = async () => {
    const r = await invoke('export_lorebook', { id: book.id })
    if (!r) return
    downloadFile(`${r.name}.json`, r.json, 'application/json')
  }
  return (
    <div className="lore-book-head">
      <label className="field">
        {t('lore.bookName')}
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          onBlur={() =>
            name.trim() && name !== book.name && void invoke('update_lorebook', { id: book.id, name }).then(onChanged)
          }
        />
      </label>
      <fieldset className="lore-attach">
        <legend>{t('lore.attachedTo')}</legend>
        {targets.map(toggle)}
        {personaTargets.length > 0 && (
          <div className="lore-attach-personas" role="group" aria-label={t('lore.personasHeading')}>
            {personaTargets.map(toggle)}
          </div>
        )}
      </fieldset>
      {/* Open or closed as the user left it: the form inside starts over from each saved change
          (an entry saved changes the book too), the panel around it does not close. */}
      <details className="lore-advanced">
        <summary>{t('lore.bookSettings')}</summary>
        <BookSettings key={book.updated} book={book} onChanged={onChanged} />
      </details>
      <div className="dialog-actions">
        <button type="button" onClick={() => void exportBook()}>
          {t('lore.exportBook')}
        </button>
        <DeleteInTwoSteps
          key={book.id}
          label={t('lore.deleteBook')}
          confirmLabel={t('lore.confirmDelete', { name: book.name })}
          onDelete={() => void invoke('delete_lorebook', { id: book.id }).then((r) => r && onDeleted())}
        />
      </div>
    </div>
  )
}

const bookNumbers = ['scan_depth', 'token_budget', 'max_recursion'] as const

/** The book's own settings: how far back keys are looked for, its token budget, recursion, and the defaults of its entries. */
function BookSettings({ book, onChanged }: { book: LoreBook; onChanged: (b: LoreBook | null | undefined) => void }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const [draft, setDraft] = useState({
    description: book.description,
    recursive: book.settings.recursive,
    case_sensitive: book.settings.case_sensitive,
    match_whole_words: book.settings.match_whole_words,
    numbers: Object.fromEntries(bookNumbers.map((f) => [f, String(book.settings[f])])) as Record<
      (typeof bookNumbers)[number],
      string
    >,
  })
  const bad = bookNumbers.find((f) => !/^\d+$/.test(draft.numbers[f].trim()))
  const flag = (key: 'recursive' | 'case_sensitive' | 'match_whole_words', label: string) => (
    <label className="inline">
      <input type="checkbox" checked={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.checked })} />
      {label}
    </label>
  )
  return (
    <div role="form" aria-label={t('lore.bookSettings')} className="lore-entry">
      <label className="field">
        {t('lore.bookDescription')}
        <textarea
          rows={2}
          value={draft.description}
          onChange={(e) => setDraft({ ...draft, description: e.target.value })}
        />
      </label>
      <div className="lore-row">
        {bookNumbers.map((f) => (
          <label key={f} className="field">
            {t(f === 'scan_depth' ? 'lore.number.scan_depthBook' : `lore.number.${f}`)}
            <input
              inputMode="numeric"
              value={draft.numbers[f]}
              aria-invalid={bad === f || undefined}
              onChange={(e) => setDraft({ ...draft, numbers: { ...draft.numbers, [f]: e.target.value } })}
            />
          </label>
        ))}
      </div>
      <div className="lore-row">
        {flag('recursive', t('lore.recursive'))}
        {flag('case_sensitive', t('lore.bookCaseSensitive'))}
        {flag('match_whole_words', t('lore.bookWholeWords'))}
      </div>
      {/* A row of its own: beside the flags it wrapped under them in English and sat at their end in Japanese. */}
      <div className="lore-save">
        <button
          type="button"
          disabled={bad !== undefined}
          onClick={() =>
            void invoke('update_lorebook', {
              id: book.id,
              description: draft.description,
              settings: {
                recursive: draft.recursive,
                case_sensitive: draft.case_sensitive,
                match_whole_words: draft.match_whole_words,
                ...Object.fromEntries(bookNumbers.map((f) => [f, Number(draft.numbers[f])])),
              },
            }).then(onChanged)
          }
        >
          {t('lore.saveBook')}
        </button>
      </div>
    </div>
  )
}
