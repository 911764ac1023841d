import { useTranslation } from 'react-i18next'
import { Check, MessageSquarePlus, MessagesSquare, Sparkles, UserRound, UserRoundPlus } from 'lucide-react'
import { useShell } from '../../store/shell'
import { useApp } from '../../store'
import { Button } from '../../ui/Button'
import { EmptyState } from '../../ui/EmptyState'
import './welcome.css'

/**
 * What the canvas shows with no conversation open. On first run (no conversation yet) the
 * path in: choose or make a persona, then open the first conversation with them. Later, the
 * way back to a conversation.
 */
export function Welcome() {
  const { t } = useTranslation()
  const flows = useApp((s) => s.flows)
  const createFlow = useApp((s) => s.createFlow)
  const openPalette = useShell((s) => s.openPalette)
  if (flows.length > 0) {
    return (
      <EmptyState
        icon={MessagesSquare}
        title={t('canvas.emptyTitle')}
        testId="welcome"
        actions={
          <>
            <Button
              variant="primary"
              icon={MessageSquarePlus}
              onClick={() => void createFlow(t('graph.defaultFlowName'))}
            >
              {t('graph.newFlow')}
            </Button>
            <Button variant="secondary" icon={MessagesSquare} onClick={() => openPalette('conversations')}>
              {t('shell.welcome.openOne')}
            </Button>
          </>
        }
      >
        <p>{t('canvas.emptyBody')}</p>
      </EmptyState>
    )
  }
  return <FirstRun />
}

function FirstRun() {
  const { t } = useTranslation()
  const personas = useApp((s) => s.personas)
  const chosen = useApp((s) => s.nextPersonaId)
  const bind = useApp((s) => s.bindPersona)
  const createFlow = useApp((s) => s.createFlow)
  const openModal = useApp((s) => s.openModal)
  const who = personas.find((p) => p.id === chosen)
  return (
    <section className="welcome" aria-labelledby="welcome-title" data-testid="welcome">
      <span className="ui-empty-icon" aria-hidden="true">
        <Sparkles size={24} />
      </span>
      <h2 id="welcome-title">{t('shell.welcome.title')}</h2>
      <p className="welcome-lead">{t('shell.welcome.lead')}</p>
      <ol className="welcome-steps">
        <li className={who ? 'done' : undefined}>
          <span className="welcome-step-mark" aria-hidden="true">
            {who ? <Check size={14} /> : '1'}
          </span>
          <div className="welcome-step-body">
            <h3>{t('shell.welcome.step1')}</h3>
            <p>{personas.length ? t('shell.welcome.step1Choose') : t('shell.welcome.step1None')}</p>
            {/* The personas and "Make a persona…" on one row: under them, the ghost button sat indented on a row of its own. */}
            <div className="welcome-personas-row">
              {personas.length > 0 && (
                <div className="welcome-personas" role="group" aria-label={t('shell.welcome.step1')}>
                  {personas.map((p) => (
                    <Button
                      key={p.id}
                      variant="secondary"
                      size="sm"
                      icon={UserRound}
                      aria-pressed={p.id === chosen}
                      onClick={() => void bind(p.id)}
                    >
                      {p.name}
                    </Button>
                  ))}
                </div>
              )}
              <Button
                variant={personas.length ? 'ghost' : 'secondary'}
                size="sm"
                icon={UserRoundPlus}
                onClick={() => openModal({ name: 'personas' })}
              >
                {t('shell.welcome.makePersona')}
              </Button>
            </div>
          </div>
        </li>
        <li>
          <span className="welcome-step-mark" aria-hidden="true">
            2
          </span>
          <div className="welcome-step-body">
            <h3>{t('shell.welcome.step2')}</h3>
            <p>{who ? t('shell.welcome.step2With', { name: who.name }) : t('shell.welcome.step2Without')}</p>
            <Button
              variant="primary"
              icon={MessageSquarePlus}
              onClick={() => void createFlow(t('graph.defaultFlowName'))}
            >
              {t('graph.newFlow')}
            </Button>
          </div>
        </li>
      </ol>
      <p className="welcome-foot">{t('shell.welcome.foot')}</p>
    </section>
  )
}
