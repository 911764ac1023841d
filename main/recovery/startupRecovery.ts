import type { Db } from '../db/open'
import type { GraphService } from '../graph/graphService'
import type { HomePaths } from '../kernel/home'
import { JobQueue } from '../kernel/jobs/jobQueue'
import { sweepFiles } from '../world/sweepFiles'
import { sweepStoryTemps } from './sweepStories'
import { removeUnfinishedImports } from '../graph/unfinishedImports'

export interface RecoveryReport {
  replies: number
  /** Flows an import had not finished writing, removed. */
  imports: number
  jobs: number
  temps: number
  orphans: number
  orphansFolder: string | null
}

/**
 * What a crash of the whole app left in loomverse.db and the home's folders, put right before
 * anything is served. Run only when this process is alone on the home (see registerInstance):
 * another live process's streaming replies, claimed jobs and half-written files are its own.
 */
export function recoverAtStartup(
  db: Db,
  graph: Pick<GraphService, 'finishInterruptedReplies'>,
  paths: HomePaths,
  log: (message: string) => void,
): RecoveryReport {
  const replies = graph.finishInterruptedReplies()
  const imports = removeUnfinishedImports(db)
  const jobs = new JobQueue(db).releaseRunning()
  let files = { temps: [] as string[], orphans: [] as string[], orphansFolder: null as string | null }
  try {
    files = sweepFiles(db, paths)
  } catch (e) {
    // A folder swapped for a link out of the home is left alone: the app still starts.
    log(`[recovery] left the item folders as they are: ${e instanceof Error ? e.message : String(e)}`)
  }
  try {
    files.temps.push(...sweepStoryTemps(paths))
  } catch (e) {
    log(`[recovery] left the story folders as they are: ${e instanceof Error ? e.message : String(e)}`)
  }
  const report = {
    replies,
    imports,
    jobs,
    temps: files.temps.length,
    orphans: files.orphans.length,
    orphansFolder: files.orphansFolder,
  }
  if (replies + imports + jobs + report.temps + report.orphans > 0)
    log(
      `[recovery] after an unclean stop: ${replies} cut replies marked incomplete, ${imports} unfinished imports removed, ${jobs} jobs released, ` +
        `${report.temps} temp files removed, ${report.orphans} orphan item files moved to ${report.orphansFolder ?? 'trash'}`,
    )
  return report
}
