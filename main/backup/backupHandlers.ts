import type { backupMethods } from '@shared/contract'
import type { HandlerModule } from '../kernel/router'
import type { BackupService } from './backupService'

// Windows name folders here by typed path (browser mode has no native picker), unlike the
// imports/ and exports/ rule of callerNamesAnyPath: the service checks each one (absolute, not a
// link, outside the data folder), writes only new folders and deletes only complete backups.
export function backupHandlers(backup: BackupService): HandlerModule<typeof backupMethods> {
  return {
    backup_status: () => backup.status(),
    backup_update_settings: (patch) => backup.updateSettings(patch),
    backup_run: ({ folder }) => backup.run('manual', folder),
    backup_verify: ({ backup: path }) => backup.verify(path),
    backup_restore: ({ backup: path, to }) => backup.restore(path, to),
  }
}
