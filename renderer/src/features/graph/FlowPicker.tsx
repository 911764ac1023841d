import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'

/** Switch, create, rename and delete conversations (flows). */
export function FlowPicker() {
  const { t } = useTranslation()
  const flows = useApp((s) => s.flows)
  const flowId = useApp((s) => s.flowId)
  const openFlow = useApp((s) => s.openFlow)
  const createFlow = useApp((s) => s.createFlow)
  const openModal = useApp((s) => s.openModal)
  return (
    <div className="flow-picker">
      <label className="picker">
        <span>{t('header.flow')}</span>
        <select
          data-testid="flow-select"
          aria-label={t('header.flow')}
          value={flowId ?? ''}
          disabled={flows.length === 0}
          onChange={(e) => void openFlow(e.target.value || null)}
        >
          {flows.length === 0 && <option value="">{t('header.noFlows')}</option>}
          {flowId === null && flows.length > 0 && <option value="">—</option>}
          {flows.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name} ({f.node_count})
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={() => void createFlow(t('graph.defaultFlowName'))}>
        {t('graph.newFlow')}
      </button>
      <button type="button" disabled={!flowId} onClick={() => flowId && openModal({ name: 'flow_settings', flowId })}>
        {t('graph.edit')}
      </button>
      <button type="button" disabled={!flowId} onClick={() => flowId && openModal({ name: 'delete_flow', flowId })}>
        {t('graph.deleteFlowShort')}
      </button>
    </div>
  )
}
