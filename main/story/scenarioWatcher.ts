import { watch, type FSWatcher } from 'node:fs'
import { posix } from 'node:path'
import type { EventBus } from '../kernel/events'
import { contentHash } from './scenarioFiles'
import type { StoryService } from './storyService'

/** Editors write a file in bursts (truncate, write, rename): one check after the burst settles. */
const SETTLE_MS = 150

/**
 * Watches the scenario folders of the stories a window opened, so an edit made outside the app
 * (another editor, git) reaches the open editor: a file whose content differs from what the
 * app last read or wrote is announced as `external`, and the editor compares it with its base.
 */
export class ScenarioWatcher {
  private readonly watchers = new Map<string, FSWatcher>()
  private readonly timers = new Map<string, NodeJS.Timeout>()

  constructor(
    private readonly stories: StoryService,
    private readonly bus: EventBus,
  ) {}

  watch(storyId: string): void {
    if (this.watchers.has(storyId)) return
    const row = this.stories.store.get(storyId)
    if (!row) return
    const files = this.stories.files(row)
    try {
      const watcher = watch(files.resolve('scenario'), { recursive: true }, (_, name) => {
        if (name) this.changed(storyId, `scenario/${String(name).split(/[\\/]/).join('/')}`)
      })
      watcher.on('error', () => this.unwatch(storyId))
      watcher.unref()
      this.watchers.set(storyId, watcher)
    } catch {
      // A file system without change notifications: edits are still caught by the hash check on save.
    }
  }

  private changed(storyId: string, path: string): void {
    if (!path.endsWith('.md') || posix.basename(path).startsWith('.tmp-')) return
    const key = this.stories.fileKey(storyId, path)
    clearTimeout(this.timers.get(key))
    const timer = setTimeout(() => {
      this.timers.delete(key)
      const row = this.stories.store.get(storyId)
      if (!row) return
      let content: string | null
      try {
        content = this.stories.files(row).readOrNull(path)
      } catch {
        return // a link out of the project, or a file refused (too big, not UTF-8, a FIFO): not ours to read
      }
      const hash = content === null ? '' : contentHash(content)
      if (this.stories.knownHashes.get(key) === hash) return
      this.stories.knownHashes.set(key, hash)
      this.bus.emit('story_file_changed', { story_id: storyId, path, hash, source: 'external' })
    }, SETTLE_MS)
    timer.unref()
    this.timers.set(key, timer)
  }

  private unwatch(storyId: string): void {
    this.watchers.get(storyId)?.close()
    this.watchers.delete(storyId)
  }

  dispose(): void {
    for (const id of [...this.watchers.keys()]) this.unwatch(id)
    for (const t of this.timers.values()) clearTimeout(t)
    this.timers.clear()
  }
}
