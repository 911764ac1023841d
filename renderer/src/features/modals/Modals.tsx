import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp, useAppStore } from '../../store'
import type { Modal } from '../../store/modalSlice'
import { placeChild } from '../graph/layout'
import { Dialog } from './Dialog'

export function Modals() {
  const modal = useApp((s) => s.modal)
  const close = useApp((s) => s.closeModal)
  if (!modal) return null
  switch (modal.name) {
    case 'edit_prompt':
      return <EditPrompt modal={modal} onClose={close} />
    case 'delete_node':
      return <DeleteNode modal={modal} onClose={close} />
    case 'rename_flow':
      return <RenameFlow modal={modal} onClose={close} />
    case 'delete_flow':
      return <DeleteFlow modal={modal} onClose={close} />
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
    const parents = flow?.connections.filter((c) => c.to === modal.nodeId).map((c) => c.from) ?? []
    onClose()
    void branch(modal.nodeId, text, flow ? placeChild(flow, positions, parents) : undefined)
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

function RenameFlow({ modal, onClose }: Props<'rename_flow'>) {
  const { t } = useTranslation()
  const current = useApp((s) => s.flows.find((f) => f.id === modal.flowId)?.name ?? '')
  const rename = useApp((s) => s.renameFlow)
  const [name, setName] = useState(current)
  const submit = () => {
    onClose()
    void rename(modal.flowId, name.trim())
  }
  return (
    <Dialog title={t('graph.renameFlow')} onClose={onClose}>
      <input
        aria-label={t('graph.flowName')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && name.trim() && submit()}
      />
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="primary" disabled={!name.trim()} onClick={submit}>
          {t('common.save')}
        </button>
      </div>
    </Dialog>
  )
}

function DeleteFlow({ modal, onClose }: Props<'delete_flow'>) {
  const { t } = useTranslation()
  const flow = useApp((s) => s.flows.find((f) => f.id === modal.flowId))
  const deleteFlow = useApp((s) => s.deleteFlow)
  return (
    <Dialog title={t('graph.deleteFlow')} onClose={onClose}>
      <p>{t('graph.deleteFlowBody', { name: flow?.name ?? '', count: flow?.node_count ?? 0 })}</p>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="danger primary"
          onClick={() => {
            onClose()
            void deleteFlow(modal.flowId)
          }}
        >
          {t('graph.delete')}
        </button>
      </div>
    </Dialog>
  )
}
