import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'

/**
 * What the persona's memory jobs spent on the lightweight model today, and the user's say over
 * it: a pause switch and a daily token budget. When memory is paused (by the user, by the
 * circuit breaker after repeated failures, or by a spent budget) it says so and why.
 */
export function MemorySpend() {
  const { t, i18n } = useTranslation()
  const status = useApp((s) => s.memoryStatus)
  const setPaused = useApp((s) => s.setMemoryPaused)
  if (!status) return null
  const { spend, paused } = status
  const number = (n: number) => n.toLocaleString(i18n.language)
  return (
    <div className="memory-spend" data-testid="memory-spend">
      <p className="hint">
        {spend.daily_token_budget === null
          ? t('memory.spend.today', { calls: number(spend.calls_today), tokens: number(spend.tokens_today) })
          : t('memory.spend.todayOfBudget', {
              calls: number(spend.calls_today),
              tokens: number(spend.tokens_today),
              budget: number(spend.daily_token_budget),
            })}
      </p>
      {paused.by && (
        <p className="memory-paused" role="status" data-testid="memory-paused">
          {paused.by === 'breaker'
            ? t('memory.spend.pausedByBreaker', { model: paused.model ?? '', reason: paused.reason ?? '' })
            : t(paused.by === 'user' ? 'memory.spend.pausedByUser' : 'memory.spend.pausedByBudget')}{' '}
          {paused.by !== 'budget' && (
            <button
              type="button"
              className="link"
              onClick={() => void setPaused(false, { retryFailed: paused.by === 'breaker' })}
            >
              {t('memory.spend.resume')}
            </button>
          )}
        </p>
      )}
      <label className="field-inline">
        <input type="checkbox" checked={paused.by === 'user'} onChange={(e) => void setPaused(e.target.checked)} />
        {t('memory.spend.pause')}
      </label>
      <BudgetField key={spend.daily_token_budget ?? 'none'} budget={spend.daily_token_budget} />
    </div>
  )
}

/** The daily token budget; empty means no limit. Saved on Enter or when leaving the field. */
function BudgetField({ budget }: { budget: number | null }) {
  const { t } = useTranslation()
  const setBudget = useApp((s) => s.setMemoryBudget)
  const [text, setText] = useState(budget === null ? '' : String(budget))
  const value = text.trim() === '' ? null : Number(text)
  const valid = value === null || (Number.isInteger(value) && value > 0)
  const save = () => {
    if (valid && value !== budget) void setBudget(value)
  }
  return (
    <label className="field-inline">
      {t('memory.spend.budget')}
      <input
        type="number"
        min={1}
        step={1000}
        inputMode="numeric"
        placeholder={t('memory.spend.noBudget')}
        aria-invalid={!valid}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === 'Enter') save()
        }}
      />
    </label>
  )
}
