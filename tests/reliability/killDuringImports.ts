import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FlowSummary } from '@shared/contract'
import { homePaths } from '../../main/kernel/home'
import { chatgptMessage, type Mapping } from '../support/foreignFiles'
import { seededRandom } from '../support/seededRandom'
import { startServer, type Server } from '../support/serveProcess'
import { checkIntegrity } from './integrity'
import { ConnectionLost, WireClient } from './wireClient'

export interface KillImportsResult {
  suite: 'kill_imports'
  seed: number
  iterations: number
  /** Imports answered before a kill. */
  acknowledged: number
  /** Imports the kill cut before their answer. */
  cut: number
  /** Conversations of an acknowledged import missing or short after the restart. Must be 0. */
  lost: number
  /** Conversations listed after a restart with some of their nodes: half an import shown. Must be 0. */
  partial: number
  /** Cut imports that did not come in whole when the same file was imported again. Must be 0. */
  not_retried: number
  /** Databases failing integrity_check after a restart. Must be 0. */
  corrupt: number
  details: string[]
}

/** Conversations per export and prompt/answer pairs per conversation: an import of many slices. */
const CONVERSATIONS = 3
const PAIRS = 1_500

/** A conversation of `pairs` prompts, each answered, each the child of the answer before. */
function line(pairs: number, label: string): Mapping {
  const mapping: Mapping = { root: { message: null, parent: null, children: ['u0'] } }
  for (let i = 0; i < pairs; i++) {
    mapping[`u${i}`] = {
      message: chatgptMessage('user', `${label} question ${i}`),
      parent: i === 0 ? 'root' : `a${i - 1}`,
      children: [`a${i}`],
    }
    mapping[`a${i}`] = {
      message: chatgptMessage('assistant', `${label} answer ${i}`),
      parent: `u${i}`,
      children: i + 1 < pairs ? [`u${i + 1}`] : [],
    }
  }
  return mapping
}

/**
 * kill -9 during imports: the app on one home imports a ChatGPT export of a few conversations
 * written in many slices, as a window asks for it, and is SIGKILLed after a random number of its
 * progress events or just after it answered, in turn; then started again on the same home. Every
 * conversation of an acknowledged import must be there whole; no conversation may be listed with
 * part of its nodes (start-up removes what an import had not finished); the file an import was
 * cut in must come in whole when imported again (a conversation half written is not "imported
 * before"); and every database must pass integrity_check.
 */
export async function killDuringImports(options: {
  iterations: number
  seed: number
  /** Run the TypeScript source (the vitest version) instead of the build. */
  fromSource?: boolean
  onIteration?: (i: number, result: KillImportsResult) => void
}): Promise<KillImportsResult> {
  const random = seededRandom(options.seed)
  const result: KillImportsResult = {
    suite: 'kill_imports',
    seed: options.seed,
    iterations: 0,
    acknowledged: 0,
    cut: 0,
    lost: 0,
    partial: 0,
    not_retried: 0,
    corrupt: 0,
    details: [],
  }
  const note = (text: string) => {
    if (result.details.length < 20) result.details.push(text)
  }
  const home = mkdtempSync(join(tmpdir(), 'loomverse-kill-imports-'))
  const imports = homePaths(home).imports
  mkdirSync(imports, { recursive: true })
  const serve = () => startServer({ home, fromSource: options.fromSource })
  // Every conversation title an acknowledged import brought in.
  const acknowledged = new Set<string>()
  let server: Server = await serve()
  try {
    for (let i = 0; i < options.iterations; i++) {
      const file = `export-${i}.json`
      const titles = Array.from({ length: CONVERSATIONS }, (_, k) => `import ${i}.${k}`)
      // Each conversation an id of its own: one imported before is skipped by its id.
      const conversations = titles.map((title) => ({
        title,
        conversation_id: title,
        create_time: 1_700_000_000,
        mapping: line(PAIRS, title),
      }))
      writeFileSync(join(imports, file), JSON.stringify(conversations))
      const client = await WireClient.open(server.wsUrl)
      await client.subscribe(['job_progress'])
      // Every other kill lands among the slices, after 0–2 progress events; the others just after the answer.
      const afterAnswer = i % 2 === 1
      const killAfter = Math.floor(random() * 3)
      const victim = server
      let seen = 0
      let killing: Promise<void> | null = null
      const kill = () => (killing ??= victim.kill())
      const stopHearing = client.onEvent((event, data) => {
        const d = data as { label?: string; state?: string }
        if (event === 'job_progress' && d.label === 'ChatGPT import' && d.state === 'running' && !afterAnswer)
          if (seen++ === killAfter) void kill()
      })
      const answered = await client.call('chatgpt_import', { path: file }, 600_000).then(
        (reply) => {
          if (!reply.ok) throw new Error(`chatgpt_import refused: ${reply.error.code}: ${reply.error.message}`)
          return true
        },
        (e: unknown) => {
          if (killing) return false
          throw e instanceof ConnectionLost ? new Error(`the app died by itself:\n${victim.stderr()}`) : e
        },
      )
      if (answered && !killing) {
        for (const title of titles) acknowledged.add(title)
        result.acknowledged++
      } else result.cut++
      await kill()
      stopHearing()
      client.close()

      server = await serve()
      const check = await WireClient.open(server.wsUrl)
      const flows = await check.value<FlowSummary[]>('list_flows', {})
      const byName = new Map(flows.map((f) => [f.name, f]))
      for (const title of acknowledged) {
        const flow = byName.get(title)
        if (flow?.node_count !== PAIRS) {
          result.lost++
          note(`iteration ${i}: "${title}" was acknowledged, now ${flow ? `${flow.node_count} nodes` : 'missing'}`)
        }
      }
      for (const flow of flows) {
        if (flow.name.startsWith('import ') && flow.node_count !== PAIRS) {
          result.partial++
          note(`iteration ${i}: "${flow.name}" is listed with ${flow.node_count} of ${PAIRS} nodes`)
        }
      }
      for (const r of checkIntegrity(home)) {
        if (!r.ok) {
          result.corrupt++
          note(`iteration ${i}: ${r.file}: ${r.report}`)
        }
      }
      if (!answered) {
        // The user imports the file again: what the kill cut comes in whole, what was whole is skipped.
        await check.value('chatgpt_import', { path: file }, 600_000)
        const again = new Map((await check.value<FlowSummary[]>('list_flows', {})).map((f) => [f.name, f]))
        for (const title of titles) {
          if (again.get(title)?.node_count === PAIRS) acknowledged.add(title)
          else {
            result.not_retried++
            note(`iteration ${i}: "${title}" imported again has ${again.get(title)?.node_count ?? 'no'} nodes`)
          }
        }
      }
      check.close()
      result.iterations++
      options.onIteration?.(i, result)
    }
  } finally {
    await server.stop()
    rmSync(home, { recursive: true, force: true })
  }
  return result
}
