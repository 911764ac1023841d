import type { AppInfo } from '@shared/contract'
import { name, version } from '../../package.json'
import type { Db } from '../db/open'
import { schemaVersion } from '../db/migrate'

export interface AppInfoDeps {
  db: Db
  dbPath: string
  home: string
  mode: AppInfo['mode']
}

export function appInfo({ db, dbPath, home, mode }: AppInfoDeps): AppInfo {
  const row = db.prepare('SELECT sqlite_version() AS sqlite, vec_version() AS vec').get() as {
    sqlite: string
    vec: string
  }
  return {
    name,
    version,
    mode,
    versions: {
      node: process.versions.node,
      electron: process.versions.electron ?? null,
      sqlite: row.sqlite,
      sqlite_vec: row.vec,
    },
    platform: process.platform,
    home,
    db: { path: dbPath, schema_version: schemaVersion(db) },
  }
}
