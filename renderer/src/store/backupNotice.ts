import { BACKUP_JOB } from '@shared/contract'
import type { Client } from '../bridge'
import type { AppStore } from './app'

/**
 * A backup that failed before this window was open (a scheduled one at start-up, or while the
 * window was away) still shows in the status bar: a backup that fails is never silent.
 */
export function wireBackupNotice(client: Client, store: AppStore): void {
  const show = async () => {
    const status = await client.invoke('backup_status', {}).catch(() => null)
    const last = status?.ok ? status.value.last : null
    if (last && !last.ok)
      store.getState().applyJobProgress({ ...BACKUP_JOB, state: 'failed', done: 0, total: 0, error: last.error ?? '' })
  }
  if (client.state() === 'connected') void show()
  client.onState((state) => {
    if (state === 'connected') void show()
  })
}
