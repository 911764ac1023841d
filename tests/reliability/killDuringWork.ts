import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import type { Flow, FlowGraph, JobProgress } from '@shared/contract'
import { homePaths } from '../../main/kernel/home'
import { startFakeLlm, type FakeLlm } from '../support/fakeLlm'
import { llmEnv, startServer } from '../support/serveProcess'
import { WireClient } from './wireClient'

export interface KillWorkResult {
  suite: 'kill_work'
  iterations: number
  /** Replies still `streaming` after the restart (nothing streams them any more). Must be 0. */
  streaming_left: number
  /** Summary jobs still held after the restart, so their batch never finished. Must be 0. */
  jobs_stuck: number
  /** Jobs the killed process held (status running): the case the restart must recover. */
  jobs_running_at_kill: number
  details: string[]
}

/** The reply that is streaming when the kill comes: long and slow, so the kill always lands mid-way. */
const STREAM_MARK = 'STREAM-ME'
const SUMMARY_MARK = 'summarise and tag'
const SUMMARY_REPLY = 'Summary: a node about crashes.\nTags: crash, restart, recovery'
const NODES = 6
/**
 * How long the restarted app gets to finish the batch the crash cut. Far below the jobs' 5-minute
 * lease, so a job the dead process still "holds" shows up as stuck instead of quietly waiting it out.
 */
const FINISH_TIMEOUT_MS = 45_000

/**
 * kill -9 while a chat reply streams and a batch of summary jobs runs, then a restart on the
 * same home: no node may be left `streaming`, and the summary batch must finish (no job left
 * running under the dead process's lease).
 */
export async function killDuringWork(options: {
  iterations: number
  onIteration?: (i: number, result: KillWorkResult) => void
}): Promise<KillWorkResult> {
  const result: KillWorkResult = {
    suite: 'kill_work',
    iterations: 0,
    streaming_left: 0,
    jobs_stuck: 0,
    jobs_running_at_kill: 0,
    details: [],
  }
  const llm = await startFakeLlm()
  try {
    for (let i = 0; i < options.iterations; i++) {
      const home = mkdtempSync(join(tmpdir(), 'loomverse-kill-work-'))
      try {
        await oneCrash(llm, home, i, result)
      } finally {
        rmSync(home, { recursive: true, force: true })
      }
      result.iterations++
      options.onIteration?.(i, result)
    }
  } finally {
    await llm.close()
  }
  return result
}

async function oneCrash(llm: FakeLlm, home: string, i: number, result: KillWorkResult): Promise<void> {
  const env = { ...llmEnv(llm), LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: 'openai:gpt-4o-mini' }
  llm.reset()
  const story = Array.from({ length: 400 }, (_, k) => `part ${k} `)
  llm.script({ promptIncludes: STREAM_MARK, reply: story.join(''), chunks: story, chunkDelayMs: 100 })
  // The first summary answers at once (so progress shows the batch under way); the rest hang until the kill.
  llm.script({ promptIncludes: SUMMARY_MARK, reply: SUMMARY_REPLY, times: 1 })
  llm.script({ promptIncludes: SUMMARY_MARK, reply: SUMMARY_REPLY, delayMs: 600_000 })

  const first = await startServer({ home, env })
  let client = await WireClient.open(first.wsUrl)
  await client.value('update_settings', { language: 'en' }) // the summary prompt the rules above recognise
  await client.subscribe(['node_stream', 'job_progress'])
  const flow = await client.value<Flow>('create_flow', { name: `work ${i}` })
  for (let n = 0; n < NODES; n++) {
    await client.value('create_node', { flow_id: flow.id, prompt: `question ${n}`, response: `answer ${n}` })
  }
  const { node_id: streamingId } = await client.value<{ node_id: string }>('chat_send', {
    flow_id: flow.id,
    prompt: `${STREAM_MARK}: tell me a long story`,
  })
  await client.next<{ node_id: string }>('node_stream', (d) => d.node_id === streamingId, 30_000, 'the reply to stream')
  const underWay = client.next<JobProgress>('job_progress', (p) => p.done >= 1, 30_000, 'a first summary')
  const { batch } = await client.value<{ batch: string }>('build_summaries', { flow_id: flow.id })
  await underWay
  // The kill must land while the worker holds a job: wait until the next summary has reached the model.
  await heldByWorker(llm, 2, 30_000)
  await first.kill()
  client.close()
  const heldAtKill = countJobs(home, batch, 'running')
  result.jobs_running_at_kill += heldAtKill

  // After the restart the model answers everything at once: only the crash can hold work up now.
  llm.reset()
  llm.script({ promptIncludes: SUMMARY_MARK, reply: SUMMARY_REPLY })
  const second = await startServer({ home, env })
  try {
    client = await WireClient.open(second.wsUrl)
    await client.subscribe(['job_progress'])
    const finished = client.next<JobProgress>(
      'job_progress',
      (p) => p.job_id === batch && (p.state === 'done' || p.state === 'failed'),
      FINISH_TIMEOUT_MS,
      'the summary batch to finish after the restart',
    )
    const graph = await client.value<FlowGraph>('load_flow', { id: flow.id })
    for (const node of graph.nodes.filter((n) => n.status === 'streaming')) {
      result.streaming_left++
      result.details.push(`iteration ${i}: node ${node.id} is still "streaming" after the restart`)
    }
    if (countJobs(home, batch, 'unfinished') > 0) {
      await finished.catch(() => {
        const stuck = countJobs(home, batch, 'unfinished')
        result.jobs_stuck += stuck
        result.details.push(
          `iteration ${i}: ${stuck} summary job(s) unfinished ${FINISH_TIMEOUT_MS / 1000} s after the restart ` +
            `(${heldAtKill} were running at the kill)`,
        )
      })
    } else finished.catch(() => {}) // already done before we looked: the event came and went
    client.close()
  } finally {
    await second.stop({ keepHome: true })
  }
}

/** Jobs of the batch in the given state, read straight from the database file. */
function countJobs(home: string, batch: string, which: 'running' | 'unfinished'): number {
  const db = new Database(homePaths(home).db, { readonly: true })
  try {
    db.pragma('busy_timeout = 10000')
    const statuses = which === 'running' ? '(1)' : '(0, 1)'
    return (
      db.prepare(`SELECT count(*) AS n FROM jobs WHERE batch = ? AND status IN ${statuses}`).get(batch) as {
        n: number
      }
    ).n
  } finally {
    db.close()
  }
}

/** Resolves once `count` summary requests have reached the fake model (the worker then holds a job). */
async function heldByWorker(llm: FakeLlm, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  const asked = () => llm.requests.filter((r) => JSON.stringify(r.body).includes(SUMMARY_MARK)).length
  while (asked() < count) {
    if (Date.now() > deadline) throw new Error(`kill_work: no summary job reached the model in ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
