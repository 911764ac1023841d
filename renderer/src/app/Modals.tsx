import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp, useAppStore } from '../store'
import type { Modal } from '../store/modalState'
import { placeSibling } from '../store/placement'
import { PrivateMemorySwitch } from '../ui/PrivateMemorySwitch'
import { AuthorsNoteForm } from '../features/lorebooks/AuthorsNoteForm'
import { LorebooksDialog } from '../features/lorebooks/LorebooksDialog'
import { PersonasDialog } from '../features/personas/PersonasDialog'
import { SceneDialog } from '../features/scene/SceneDialog'
import { ProgramsDialog } from '../features/programs/ProgramsDialog'
import { ToolsDialog } from '../features/tools/ToolsDialog'
import { McpPromptDialog } from '../features/tools/McpPromptDialog'
import { McpResourcesDialog } from '../features/tools/McpResourcesDialog'
import { McpAccess } from '../features/tools/McpAccess'
import { BackupDialog } from '../features/backup/BackupDialog'
import { OnboardingDialog } from '../features/providers/OnboardingDialog'
import { ProvidersDialog } from '../features/providers/ProvidersDialog'
import { StoryPickerDialog } from '../features/story/StoryPickerDialog'
import { TransferDialog } from '../features/transfer/TransferDialog'
import { Dialog } from '../ui/Dialog'

export function Modals() {
  const modal = useApp((s) => s.modal)
  const close = useApp((s) => s.closeModal)
  if (!modal) return null
  switch (modal.name) {
    case 'edit_prompt':
      return <EditPrompt modal={modal} onClose={close} />
    case 'delete_node':
      return <DeleteNode modal={modal} onClose={close} />
    case 'flow_settings':
      return <FlowSettings modal={modal} onClose={close} />
    case 'personas':
      return (
        <PersonasDialog
          onClose={close}
          settingsOf={(persona) => (
            <>
              <AuthorsNoteForm kind="persona" targetId={persona.id} />
              <McpAccess personaId={persona.id} />
            </>
          )}
        />
      )
    case 'providers':
      return <ProvidersDialog onClose={close} />
    case 'onboarding':
      return <OnboardingDialog onClose={close} />
    case 'programs':
      return <ProgramsDialog onClose={close} />
    case 'tools':
      return <ToolsDialog onClose={close} />
    case 'backup':
      return <BackupDialog onClose={close} />
    case 'transfer':
      return <TransferDialog onClose={close} />
    case 'stories':
      return <StoryPickerDialog onClose={close} />
    case 'lorebooks':
      return <LorebooksDialog onClose={close} />
    case 'scene':
      return <SceneDialog flowId={modal.flowId} onClose={close} />
    case 'mcp_resources':
      return <McpResourcesDialog onClose={close} />
    case 'mcp_prompt':
      return <McpPromptDialog server={modal.server} prompt={modal.prompt} onClose={close} />
  }
}

type Props<N extends Modal['name']> = { modal: Extract<Modal, { name: N }>; onClose: () => void }

/** Editing a prompt never overwrites: it creates a sibling with the new prompt. */
function EditPrompt({ modal, onClose }: Props<'edit_prompt'>) {
  const { t } = useTranslation()
  const store = useAppStore()
  const original = useApp((s) => s.nodes[modal.nodeId]?.prompt ?? '')
  const [text, setText] = useState(original)
  const submit = () => {
    const { flow, positions, branch } = store.getState()
    onClose()
    void branch(modal.nodeId, text, flow ? placeSibling(flow, positions, modal.nodeId) : undefined)
  }
  return (
    <Dialog title={t('graph.editPrompt')} onClose={onClose}>
      <p className="hint">{t('graph.editPromptHint')}</p>
      <textarea
        aria-label={t('graph.prompt')}
        value={text}
        rows={8}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && text.trim()) submit()
        }}
      />
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="primary" disabled={!text.trim() || text === original} onClick={submit}>
          {t('graph.createBranch')}
        </button>
      </div>
    </Dialog>
  )
}

function DeleteNode({ modal, onClose }: Props<'delete_node'>) {
  const { t } = useTranslation()
  const hasChildren = useApp((s) => s.parentIds.has(modal.nodeId))
  const index = useApp((s) => s.members[modal.nodeId]?.index)
  const deleteNode = useApp((s) => s.deleteNode)
  const run = (mode: 'reattach' | 'subtree') => {
    onClose()
    void deleteNode(modal.nodeId, mode)
  }
  return (
    <Dialog title={t('graph.deleteTitle', { index })} onClose={onClose}>
      <p>{hasChildren ? t('graph.deleteWithChildren') : t('graph.deleteLeaf')}</p>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        {hasChildren && (
          <button type="button" className="danger" onClick={() => run('subtree')}>
            {t('graph.deleteSubtree')}
          </button>
        )}
        <button type="button" className="danger primary" onClick={() => run('reattach')}>
          {hasChildren ? t('graph.deleteReattach') : t('graph.delete')}
        </button>
      </div>
    </Dialog>
  )
}

/** Name, description, system prompt and token budget of a conversation. */
function FlowSettings({ modal, onClose }: Props<'flow_settings'>) {
  const { t } = useTranslation()
  const flow = useApp((s) => (s.flow?.id === modal.flowId ? s.flow : null))
  const summary = useApp((s) => s.flows.find((f) => f.id === modal.flowId))
  const defaultBudget = useApp((s) => s.settings?.context_budget ?? 8000)
  const invoke = useApp((s) => s.invoke)
  const loadFlows = useApp((s) => s.loadFlows)
  const [name, setName] = useState(summary?.name ?? '')
  const [description, setDescription] = useState(summary?.description ?? '')
  const [systemPrompt, setSystemPrompt] = useState(flow?.system_prompt ?? '')
  const [budget, setBudget] = useState(flow?.token_budget ? String(flow.token_budget) : '')
  const [memoryPrivate, setMemoryPrivate] = useState(flow?.memory_private ?? false)
  const persona = useApp((s) => s.personas.find((p) => p.id === flow?.persona_id))
  const budgetValue = budget.trim() === '' ? null : Number(budget)
  const budgetOk =
    budgetValue === null || (Number.isInteger(budgetValue) && budgetValue >= 256 && budgetValue <= 2_000_000)
  const submit = async () => {
    const saved = await invoke('update_flow', {
      id: modal.flowId,
      name: name.trim(),
      description,
      ...(flow ? { system_prompt: systemPrompt, token_budget: budgetValue, memory_private: memoryPrivate } : {}),
    })
    if (!saved) return // the toast says why; the dialog stays open with what was typed
    onClose()
    void loadFlows()
  }
  return (
    <Dialog title={t('graph.flowSettings')} onClose={onClose}>
      <label className="field">
        {t('graph.flowName')}
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        {t('graph.flowDescription')}
        <input value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      {flow && (
        <>
          <label className="field">
            {t('graph.systemPrompt')}
            <textarea
              rows={4}
              value={systemPrompt}
              placeholder={t('graph.systemPromptPlaceholder')}
              onChange={(e) => setSystemPrompt(e.target.value)}
            />
          </label>
          <label className="field">
            {t('graph.tokenBudget')}
            <input
              inputMode="numeric"
              value={budget}
              placeholder={t('graph.tokenBudgetDefault', { tokens: defaultBudget })}
              onChange={(e) => setBudget(e.target.value)}
            />
            {!budgetOk && (
              <span role="alert" className="field-error">
                {t('graph.tokenBudgetInvalid')}
              </span>
            )}
          </label>
          <PrivateMemorySwitch
            label={t('memory.private.conversation')}
            hint={t('memory.private.conversationHint')}
            checked={memoryPrivate}
            onChange={setMemoryPrivate}
            lockedBy={persona?.memory_private ? t('memory.private.byPersona', { name: persona.name }) : null}
          />
          {flow.persona_id && <McpAccess personaId={flow.persona_id} flowId={flow.id} />}
        </>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="primary" disabled={!name.trim() || !budgetOk} onClick={() => void submit()}>
          {t('common.save')}
        </button>
      </div>
    </Dialog>
  )
}
