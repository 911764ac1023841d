import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Flow, FlowGraph, FlowSummary, Item, ItemContent, MemoryUnitDetail, Node, Persona } from '@shared/contract'
import { startFakeLlm } from '../support/fakeLlm'
import { seededRandom } from '../support/seededRandom'
import { llmEnv, startServer, type Server } from '../support/serveProcess'
import { checkIntegrity } from './integrity'
import { ConnectionLost, WireClient } from './wireClient'

export interface KillWritesResult {
  suite: 'kill_writes'
  seed: number
  iterations: number
  /** Writes whose success reply reached the client before the kill. */
  acknowledged: number
  /** Acknowledged writes missing (or different) after the restart. Must be 0. */
  lost: number
  /** Database checks after a restart that were not `ok`. Must be 0. */
  corrupt: number
  /** Writes still in flight when the process died (their fate is free: either outcome is fine). */
  in_flight_at_kill: number
  /** The first few lost writes and corrupt reports, to start debugging from. */
  details: string[]
}

type Ack =
  | { kind: 'node'; flowId: string; id: string; prompt: string }
  | { kind: 'unit'; personaId: string; id: number; marker: string }
  | { kind: 'document'; id: string; content: string }

/** Requests in flight at once: enough that the kill usually lands with some unanswered. */
const CONCURRENCY = 8

/**
 * kill -9 during acknowledged writes: the built app on one temporary home takes node,
 * memory and document writes over its WebSocket; after a random number of replies it is
 * SIGKILLed, started again on the same home, and every write it acknowledged must be there,
 * and every database must pass `PRAGMA integrity_check`. The restarted app takes the next
 * iteration's writes, so later crashes land on a home that has been through earlier ones.
 */
export async function killDuringWrites(options: {
  iterations: number
  seed: number
  onIteration?: (i: number, result: KillWritesResult) => void
}): Promise<KillWritesResult> {
  const random = seededRandom(options.seed)
  const result: KillWritesResult = {
    suite: 'kill_writes',
    seed: options.seed,
    iterations: 0,
    acknowledged: 0,
    lost: 0,
    corrupt: 0,
    in_flight_at_kill: 0,
    details: [],
  }
  const note = (line: string) => {
    if (result.details.length < 20) result.details.push(line)
  }
  const home = mkdtempSync(join(tmpdir(), 'loomverse-kill-'))
  // A model that answers, so memory and summary jobs run (and write) while the writes land.
  const llm = await startFakeLlm()
  const env = { ...llmEnv(llm), LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: 'openai:gpt-4o-mini' }
  let server: Server | null = await startServer({ home, env })
  /** How many nodes each earlier iteration's flow had acknowledged: checked again after every crash. */
  const earlierFlows = new Map<string, number>()
  try {
    for (let i = 0; i < options.iterations; i++) {
      let client = await WireClient.open(server.wsUrl)
      const persona = await client.value<Persona>('create_persona', { name: `persona ${i}` })
      const flow = await client.value<Flow>('create_flow', { name: `crash ${i}`, persona_id: persona.id })
      const killAfter = 5 + Math.floor(random() * 120)
      const acks: Ack[] = []
      let inFlight = 0
      let killing: Promise<void> | null = null
      const victim: Server = server

      // Keep CONCURRENCY writes in flight; kill the moment the chosen reply arrives.
      await new Promise<void>((done, fail) => {
        let sequence = 0
        const launch = () => {
          if (killing) return
          const n = sequence++
          const write = nextWrite(random, i, n, flow.id, persona.id)
          inFlight++
          client.call(write.method, write.data).then(
            (reply) => {
              inFlight--
              if (killing) return
              if (!reply.ok)
                return fail(new Error(`${write.method} refused: ${reply.error.code}: ${reply.error.message}`))
              acks.push(write.ack(reply.value))
              if (acks.length < killAfter) return launch()
              result.in_flight_at_kill += inFlight
              killing = victim.kill().then(done, fail)
            },
            (e: unknown) => {
              inFlight--
              // Requests cut by our own kill are expected; anything else (the app died by itself) is not.
              if (!killing)
                fail(e instanceof ConnectionLost ? new Error(`the app died by itself:\n${victim.stderr()}`) : e)
            },
          )
        }
        for (let c = 0; c < CONCURRENCY; c++) launch()
      })
      client.close()
      result.acknowledged += acks.length

      server = await startServer({ home, env })
      client = await WireClient.open(server.wsUrl)
      for (const missing of await missingWrites(client, flow.id, acks)) {
        result.lost++
        note(`iteration ${i}: ${missing}`)
      }
      const flows = await client.value<FlowSummary[]>('list_flows', {})
      for (const [id, count] of earlierFlows) {
        const now = flows.find((f) => f.id === id)?.node_count ?? 0
        if (now < count) {
          result.lost += count - now
          note(`iteration ${i}: an earlier flow had ${count} acknowledged nodes, now ${now}`)
        }
      }
      earlierFlows.set(flow.id, acks.filter((a) => a.kind === 'node').length)
      client.close()
      for (const check of checkIntegrity(home)) {
        if (check.ok) continue
        result.corrupt++
        note(`iteration ${i}: ${check.file}: ${check.report}`)
      }
      result.iterations++
      options.onIteration?.(i, result)
    }
  } finally {
    await server?.stop()
    await llm.close()
    rmSync(home, { recursive: true, force: true })
  }
  return result
}

interface Write {
  method: string
  data: unknown
  ack(value: unknown): Ack
}

/** Mostly nodes (the graph database), some memory units (a persona's database), a few documents (a file and rows). */
function nextWrite(random: () => number, iteration: number, n: number, flowId: string, personaId: string): Write {
  const marker = `w${iteration}-${n}-${Math.floor(random() * 1e9).toString(36)}`
  const body = `${marker} ${'記憶 memory '.repeat(Math.floor(random() * 200))}`
  const roll = random()
  if (roll < 0.7) {
    return {
      method: 'create_node',
      data: { flow_id: flowId, prompt: body, response: `reply to ${marker}` },
      ack: (v) => ({ kind: 'node', flowId, id: (v as Node).id, prompt: body }),
    }
  }
  if (roll < 0.92) {
    return {
      method: 'memory_add_unit',
      data: { persona_id: personaId, kind: 'fact', text: body },
      ack: (v) => ({ kind: 'unit', personaId, id: (v as MemoryUnitDetail).unit.id, marker }),
    }
  }
  return {
    method: 'document_create',
    data: { name: `doc ${marker}`, description: 'written before a crash', content: body },
    ack: (v) => ({ kind: 'document', id: (v as Item).id, content: body }),
  }
}

/** Each acknowledged write that the restarted app does not give back as it was written. */
async function missingWrites(client: WireClient, flowId: string, acks: Ack[]): Promise<string[]> {
  const missing: string[] = []
  const graph = await client.value<FlowGraph>('load_flow', { id: flowId })
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]))
  for (const ack of acks) {
    if (ack.kind === 'node') {
      const node = nodes.get(ack.id)
      if (!node) missing.push(`node ${ack.id} is gone`)
      else if (node.prompt !== ack.prompt) missing.push(`node ${ack.id} has a different prompt`)
    } else if (ack.kind === 'unit') {
      const r = await client.call('memory_get_unit', { persona_id: ack.personaId, unit_id: ack.id })
      if (!r.ok) missing.push(`memory unit ${ack.id}: ${r.error.code}: ${r.error.message}`)
      else if (!(r.value as MemoryUnitDetail).unit.text.includes(ack.marker))
        missing.push(`memory unit ${ack.id} lost its text`)
    } else {
      const r = await client.call('item_view', { item_id: ack.id })
      if (!r.ok) missing.push(`document ${ack.id}: ${r.error.code}: ${r.error.message}`)
      else if ((r.value as ItemContent & { kind: 'document' }).text !== ack.content)
        missing.push(`document ${ack.id} has different text`)
    }
  }
  return missing
}
