import type { settingsMethods } from '@shared/contract'
import type { HandlerModule } from '../kernel/router'
import type { SettingsService } from './settingsService'

export function settingsHandlers(settings: SettingsService): HandlerModule<typeof settingsMethods> {
  return {
    get_settings: () => settings.get(),
    update_settings: (patch) => settings.update(patch),
  }
}
