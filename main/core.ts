import type { AppInfo } from '@shared/contract'
import { appMigrations } from './db/migrations'
import { openDatabase, type Db } from './db/open'
import { GraphService } from './graph/graphService'
import { graphHandlers } from './graph/graphHandlers'
import { EventBus } from './host/events'
import { createRouter, type Handlers, type Router } from './host/router'
import { ensureHome, type HomePaths } from './home'
import { SettingsService } from './settings/settingsService'
import { appInfo } from './system/appInfoService'

export interface CoreOptions {
  home: string
  mode: AppInfo['mode']
  checkOutput?: boolean
  log?: (message: string) => void
}

/**
 * The main process minus its transports: the database, the services, the event bus and
 * the router. Electron's shell and `loomverse serve` both start one and put a transport
 * in front. Services start in dependency order and are disposed in reverse.
 */
export interface Core {
  paths: HomePaths
  db: Db
  bus: EventBus
  graph: GraphService
  router: Router
  dispose(): void
}

export function startCore(options: CoreOptions): Core {
  const paths = ensureHome(options.home)
  const { db } = openDatabase(paths.db, { migrations: appMigrations, label: 'loomverse.db' })
  const bus = new EventBus()
  const settings = new SettingsService(db, bus)
  const graph = new GraphService(db, bus)

  const handlers: Handlers = {
    app_info: () => appInfo({ db, dbPath: paths.db, home: paths.home, mode: options.mode }),
    get_settings: () => settings.get(),
    update_settings: (patch) => settings.update(patch),
    ...graphHandlers(graph, settings),
  }
  const log = options.log ?? ((m: string) => console.error(m))
  const router = createRouter(handlers, {
    checkOutput: options.checkOutput ?? (process.env.NODE_ENV === 'test' || process.env.LOOMVERSE_CHECK_OUTPUT === '1'),
    onError: (method, e) =>
      log(`[router] ${method} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  })

  return {
    paths,
    db,
    bus,
    graph,
    router,
    dispose() {
      db.close()
    },
  }
}
