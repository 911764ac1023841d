import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Worker } from 'node:worker_threads'

// Writing ten thousand small files is mostly kernel time and per-file overhead, not bytes.
// Worker threads write them synchronously, one after another, while this thread goes on
// rendering the next ones; this thread only hands over batches of text. The worker is
// plain JavaScript given as source, so it runs the same under Node, Electron and the tests
// without a build step of its own.

export interface FileToWrite {
  /** Relative to the root, with forward slashes. */
  path: string
  content: string
}

/** Files per message to the worker. */
const BATCH = 128

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { mkdirSync, writeFileSync } = require('node:fs')
const { dirname } = require('node:path')
const made = new Set()
let failed = false
parentPort.on('message', (message) => {
  if (message === 'end') {
    if (!failed) parentPort.postMessage({ done: true })
    return
  }
  if (failed) return
  try {
    for (let i = 0; i < message.length; i += 2) {
      const path = message[i]
      const dir = dirname(path)
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true })
        made.add(dir)
      }
      writeFileSync(path, message[i + 1], 'utf8')
    }
  } catch (e) {
    failed = true
    parentPort.postMessage({ error: { message: e.message, code: e.code, errno: e.errno, syscall: e.syscall, path: e.path } })
  }
})
`

type FromWriter =
  { done: true } | { error: { message: string; code?: string; errno?: number; syscall?: string; path?: string } }

/**
 * Writers working at once. Creating a file is mostly kernel time, and on a file system busy
 * with other deletions it can cost a millisecond each; two threads halve that on two cores.
 */
const WRITERS = 2

/**
 * Writes every file under `root` (which exists), creating folders as needed. `files` is
 * iterated here, so a generator renders each file just before it is handed over. Each
 * folder belongs to one writer. The first error, rendering or writing, rejects, after the
 * writers have stopped.
 */
export async function writeFiles(root: string, files: Iterable<FileToWrite>): Promise<void> {
  const writers = Array.from({ length: WRITERS }, () => new Writer())
  try {
    const writerOf = new Map<string, Writer>()
    for (const file of files) {
      const folder = dirname(file.path)
      let writer = writerOf.get(folder)
      if (!writer) {
        writer = writers[writerOf.size % writers.length]!
        writerOf.set(folder, writer)
      }
      writer.add(join(root, file.path), file.content)
    }
    await Promise.all(writers.map((w) => w.end()))
  } finally {
    await Promise.all(writers.map((w) => w.stop()))
  }
}

/** One writer thread, fed batches of [path, content, path, content, …]. */
class Writer {
  private readonly worker = new Worker(WORKER_SOURCE, { eval: true })
  private readonly finished: Promise<void>
  private batch: string[] = []

  constructor() {
    this.finished = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (message: FromWriter) => {
        if ('done' in message) resolve()
        else reject(Object.assign(new Error(message.error.message), message.error))
      })
      this.worker.on('error', reject)
      this.worker.on('exit', (code) => reject(new Error(`the file writer stopped early (exit code ${code})`)))
    })
    // Reported by end(), or not at all once stop() is called after another failure.
    this.finished.catch(() => {})
  }

  add(path: string, content: string): void {
    this.batch.push(path, content)
    if (this.batch.length === 2 * BATCH) this.flush()
  }

  /** Resolves once everything added is written; rejects with the first error writing it. */
  end(): Promise<void> {
    this.flush()
    this.worker.postMessage('end')
    return this.finished
  }

  async stop(): Promise<void> {
    await this.worker.terminate()
  }

  private flush(): void {
    if (this.batch.length === 0) return
    this.worker.postMessage(this.batch)
    this.batch = []
  }
}

/** Folders that must exist even when no file ends up in them. */
export function makeFolders(root: string, folders: Iterable<string>): void {
  for (const folder of folders) mkdirSync(join(root, folder), { recursive: true })
}
