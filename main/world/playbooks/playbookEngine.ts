import type { Playbook } from './playbook'

/** What a playbook's nodes reach out to; the world supplies real ones, tests fakes. */
export interface PlaybookPorts {
  /** Asks the model for a JSON object with the schema's fields. */
  llm(prompt: string, schema: Record<string, string>): Promise<Record<string, unknown>>
  /** Runs one of the persona's tools; the result text (errors as text too). */
  tool(name: string, args: Record<string, unknown>): Promise<string>
  /**
   * Writes an episode to the persona's memory. The memory engine is not built yet: the
   * world passes an injectable sink (see MemorySink in ../world.ts).
   */
  memorize(text: string): Promise<void>
}

export interface PlaybookStep {
  node: string
  type: string
  output: string
}

/** Enough for any of ours; a playbook that loops is cut off rather than spinning forever. */
const MAX_STEPS = 32

/**
 * Runs a playbook from its start node: `llm` nodes ask for JSON, `tool` nodes call a tool
 * with arguments filled from earlier outputs, `router` nodes branch on a value, `memorize`
 * nodes record an episode. Returns each step and the last output.
 */
export async function runPlaybook(
  playbook: Playbook,
  vars: Record<string, unknown>,
  ports: PlaybookPorts,
): Promise<{ steps: PlaybookStep[]; output: string }> {
  const byId = new Map(playbook.nodes.map((n) => [n.id, n]))
  const values: Record<string, unknown> = { ...vars }
  const steps: PlaybookStep[] = []
  let at: string | null = playbook.start
  let output = ''
  while (at !== null) {
    if (steps.length >= MAX_STEPS) throw new Error(`playbook ${playbook.name} ran more than ${MAX_STEPS} steps`)
    const node = byId.get(at)
    if (!node) throw new Error(`playbook ${playbook.name} has no node "${at}"`)
    switch (node.type) {
      case 'llm': {
        const reply = await ports.llm(fill(node.prompt, values), node.response_schema)
        values[node.id] = reply
        output = JSON.stringify(reply)
        at = node.next
        break
      }
      case 'tool': {
        const args = Object.fromEntries(Object.entries(node.args).map(([k, v]) => [k, fillValue(v, values)]))
        output = await ports.tool(node.tool, args)
        values[node.id] = output
        at = node.next
        break
      }
      case 'router': {
        const key = String(lookup(node.on, values) ?? '')
        output = key
        at = node.routes[key] ?? node.default
        break
      }
      case 'memorize': {
        output = fill(node.text, values)
        await ports.memorize(output)
        at = node.next
        break
      }
    }
    steps.push({ node: node.id, type: node.type, output })
  }
  return { steps, output }
}

/** `{a.b}` in text → the value at that path (objects as JSON); unknown paths become empty. */
export function fill(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([A-Za-z_][\w.]*)\}/g, (_, path: string) => {
    const v = lookup(path, values)
    return v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v)
  })
}

/** A whole-value placeholder keeps the value's type (an object stays an object). */
function fillValue(template: string, values: Record<string, unknown>): unknown {
  const whole = /^\{([A-Za-z_][\w.]*)\}$/.exec(template)
  return whole ? lookup(whole[1]!, values) : fill(template, values)
}

function lookup(path: string, values: Record<string, unknown>): unknown {
  let v: unknown = values
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<string, unknown>)[part]
  }
  return v
}
