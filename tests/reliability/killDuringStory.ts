import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Flow, Story, StorySave } from '@shared/contract'
import { homePaths } from '../../main/kernel/home'
import { startFakeLlm } from '../support/fakeLlm'
import { seededRandom } from '../support/seededRandom'
import { llmEnv, startServer, type Server } from '../support/serveProcess'
import { ConnectionLost, WireClient } from './wireClient'

export interface KillStoryResult {
  suite: 'kill_story'
  seed: number
  iterations: number
  /** story_init, chat_send and story_save calls answered before the kill. */
  acknowledged: number
  /** Acknowledged stories or saves missing after the restart. Must be 0. */
  lost: number
  /** Stories after a restart that do not open, or stand at no node of their flow. Must be 0. */
  broken: number
  /** `.tmp-` folders and files left under scenarios/ after a restart. Must be 0. */
  leftovers: number
  details: string[]
}

type Ack = { kind: 'story'; id: string } | { kind: 'save'; storyId: string; id: number }

/** Requests in flight at once: enough that the kill usually lands in the middle of some. */
const CONCURRENCY = 4
/** The writeFileAtomic / createProject temp names the sweep must leave none of. */
const TEMP = /^\.tmp-[0-9a-f-]{36}$/

/**
 * kill -9 during story work: the app on one home takes story_init, turns of play (chat_send,
 * whose reply writes the autosave and the transcript) and story_save, several at once; after a
 * random number of replies it is SIGKILLed and started again on the same home. Every story and
 * save it acknowledged must be there, every story must open and stand at a node of its flow
 * (a kill during init leaves one with no opening scene for start-up to complete), and no temp
 * folder or file may be left in scenarios/. The same home takes the next iteration's work.
 */
export async function killDuringStory(options: {
  iterations: number
  seed: number
  /** Run the TypeScript source (the vitest version) instead of the build. */
  fromSource?: boolean
  onIteration?: (i: number, result: KillStoryResult) => void
}): Promise<KillStoryResult> {
  const random = seededRandom(options.seed)
  const result: KillStoryResult = {
    suite: 'kill_story',
    seed: options.seed,
    iterations: 0,
    acknowledged: 0,
    lost: 0,
    broken: 0,
    leftovers: 0,
    details: [],
  }
  const note = (line: string) => {
    if (result.details.length < 20) result.details.push(line)
  }
  const home = mkdtempSync(join(tmpdir(), 'loomverse-kill-story-'))
  const llm = await startFakeLlm()
  llm.script({ reply: 'The lantern flickers, and the road goes on.' })
  const serve = () => startServer({ home, env: llmEnv(llm), fromSource: options.fromSource })
  let server: Server = await serve()
  const acks: Ack[] = []
  try {
    for (let i = 0; i < options.iterations; i++) {
      const client = await WireClient.open(server.wsUrl)
      await client.subscribe(['personas_changed'])
      const stories = await client.value<Story[]>('story_list', {})
      const killAfter = 3 + Math.floor(random() * 25)
      // Every other kill waits for a story_init to be half done: its game master is made (and
      // announced) after its folder and before its flow, row and opening scene.
      const midInit = i % 2 === 1
      let answered = 0
      let sequence = 0
      let killing: Promise<void> | null = null
      const victim = server
      await new Promise<void>((done, fail) => {
        const kill = () => {
          killing ??= victim.kill().then(done, fail)
        }
        const launch = () => {
          if (killing) return
          const work = nextWork(random, stories, i, sequence++, midInit && answered >= killAfter)
          client.call(work.method, work.data).then(
            (reply) => {
              if (killing) return
              if (!reply.ok)
                return fail(new Error(`${work.method} refused: ${reply.error.code}: ${reply.error.message}`))
              const ack = work.ack(reply.value)
              if (ack) acks.push(ack)
              if (ack?.kind === 'story') stories.push(reply.value as Story)
              result.acknowledged++
              if (++answered === killAfter && midInit)
                client.next('personas_changed', () => true, 60_000, 'a story_init under way').then(kill, fail)
              if (answered < killAfter || midInit) return launch()
              kill()
            },
            (e: unknown) => {
              if (!killing)
                fail(e instanceof ConnectionLost ? new Error(`the app died by itself:\n${victim.stderr()}`) : e)
            },
          )
        }
        for (let c = 0; c < CONCURRENCY; c++) launch()
      })
      client.close()

      server = await serve()
      const check = await WireClient.open(server.wsUrl)
      for (const problem of await storyProblems(check, acks)) {
        result[problem.kind]++
        note(`iteration ${i}: ${problem.text}`)
      }
      check.close()
      for (const left of tempsUnder(homePaths(home).scenarios)) {
        result.leftovers++
        note(`iteration ${i}: ${left} was left after the restart`)
      }
      result.iterations++
      options.onIteration?.(i, result)
    }
  } finally {
    await server.stop()
    await llm.close()
    rmSync(home, { recursive: true, force: true })
  }
  return result
}

interface Work {
  method: string
  data: unknown
  ack(value: unknown): Ack | null
}

/** A new story now and then (always, with `init`); otherwise a turn of play or a save in a story made earlier. */
function nextWork(random: () => number, stories: Story[], iteration: number, n: number, init: boolean): Work {
  const story = stories.length > 0 ? stories[Math.floor(random() * stories.length)]! : null
  const roll = random()
  if (!story || init || roll < 0.25) {
    return {
      method: 'story_init',
      data: { name: `Story ${iteration}-${n}`, template: roll < 0.12 ? 'fantasy' : 'school', language: 'en' },
      ack: (v) => ({ kind: 'story', id: (v as Story).id }),
    }
  }
  if (roll < 0.65) {
    return {
      method: 'chat_send',
      data: { flow_id: story.flow_id, prompt: `turn ${iteration}-${n}`, parent_id: story.current_node_id },
      ack: () => null,
    }
  }
  return {
    method: 'story_save',
    data: { story_id: story.id, node_id: story.current_node_id, name: `save ${iteration}-${n}` },
    ack: (v) => ({ kind: 'save', storyId: story.id, id: (v as StorySave).id }),
  }
}

/** Each acknowledged story or save missing, and each story that does not open or stands nowhere. */
async function storyProblems(
  client: WireClient,
  acks: Ack[],
): Promise<Array<{ kind: 'lost' | 'broken'; text: string }>> {
  const problems: Array<{ kind: 'lost' | 'broken'; text: string }> = []
  const stories = await client.value<Story[]>('story_list', {})
  const known = new Set(stories.map((s) => s.id))
  for (const ack of acks) {
    if (ack.kind === 'story' && !known.has(ack.id)) problems.push({ kind: 'lost', text: `story ${ack.id} is gone` })
  }
  for (const story of stories) {
    const got = await client.call('story_get', { story_id: story.id })
    if (!got.ok) {
      problems.push({ kind: 'broken', text: `story "${story.name}" does not open: ${got.error.message}` })
      continue
    }
    const { story: now } = got.value as { story: Story }
    const flow = await client.value<Flow>('get_flow', { id: now.flow_id })
    if (!now.current_node_id || !flow.nodes.some((n) => n.id === now.current_node_id))
      problems.push({ kind: 'broken', text: `story "${story.name}" stands at no node of its flow` })
    const saves = new Set((await client.value<StorySave[]>('story_saves', { story_id: story.id })).map((s) => s.id))
    for (const ack of acks) {
      if (ack.kind === 'save' && ack.storyId === story.id && !saves.has(ack.id))
        problems.push({ kind: 'lost', text: `save ${ack.id} of "${story.name}" is gone` })
    }
  }
  return problems
}

/** `.tmp-<uuid>` folders and files anywhere under scenarios/ (links are not followed). */
function tempsUnder(dir: string, rel = 'scenarios'): string[] {
  if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return []
  const found: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (TEMP.test(entry.name)) found.push(`${rel}/${entry.name}`)
    else if (entry.isDirectory()) found.push(...tempsUnder(join(dir, entry.name), `${rel}/${entry.name}`))
  }
  return found
}
