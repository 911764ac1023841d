import type { Parsed, SearchHit } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { GraphStore } from './graphStore'

/** FTS5 trigram needs three characters; shorter keywords fall back to a LIKE scan. */
const TRIGRAM = 3

/**
 * Nodes matching every given tag and every keyword (in prompt, response or summary), newest
 * first, each with an excerpt whose matches are wrapped in ⟦ ⟧.
 */
export function searchNodes(store: GraphStore, input: Parsed<'search_nodes'>): SearchHit[] {
  const tags = input.tags ?? []
  const keywords = input.keywords ?? []
  if (tags.length === 0 && keywords.length === 0)
    throw new AppError('bad_input', 'search_nodes: give tags, keywords or both')

  const where: string[] = []
  const params: unknown[] = []
  for (const kw of keywords) {
    if ([...kw].length >= TRIGRAM) {
      where.push('n.rowid IN (SELECT rowid FROM nodes_fts WHERE nodes_fts MATCH ?)')
      params.push(`"${kw.replaceAll('"', '""')}"`)
    } else {
      where.push("(n.prompt LIKE ? ESCAPE '\\' OR n.response LIKE ? ESCAPE '\\' OR n.summary_text LIKE ? ESCAPE '\\')")
      const like = `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
      params.push(like, like, like)
    }
  }
  for (const tag of tags) {
    where.push('EXISTS (SELECT 1 FROM node_tags t WHERE t.node_id = n.id AND t.tag = ?)')
    params.push(tag)
  }
  if (input.flow_id) {
    where.push('EXISTS (SELECT 1 FROM flow_nodes m WHERE m.node_id = n.id AND m.flow_id = ?)')
    params.push(input.flow_id)
  }
  params.push(input.limit ?? 100)
  // The clauses are fixed fragments chosen above; every value is a bound parameter.
  const ids = store.db
    .prepare(`SELECT n.id FROM nodes n WHERE ${where.join(' AND ')} ORDER BY n.timestamp DESC LIMIT ?`)
    .all(...params) as Array<{ id: string }>

  const names = new Map<string, string>()
  const nameOf = (flowId: string) => {
    if (!names.has(flowId)) names.set(flowId, store.flowRow(flowId)?.name ?? '')
    return names.get(flowId)!
  }
  return ids.map(({ id }) => {
    const node = store.node(id)!
    const flowIds = store.flowsOf(id)
    return {
      ...node,
      flow_ids: flowIds,
      flows: flowIds.map((flowId) => ({ id: flowId, name: nameOf(flowId) })),
      excerpt: excerpt([node.prompt, node.response, node.metadata.summary.text], keywords),
    }
  })
}

export function listTags(store: GraphStore, flowId?: string): Array<{ tag: string; count: number }> {
  const sql = flowId
    ? `SELECT t.tag, count(*) AS count FROM node_tags t JOIN flow_nodes m ON m.node_id = t.node_id AND m.flow_id = ?
       GROUP BY t.tag ORDER BY count DESC, t.tag`
    : 'SELECT tag, count(*) AS count FROM node_tags GROUP BY tag ORDER BY count DESC, tag'
  return store.db.prepare(sql).all(...(flowId ? [flowId] : [])) as Array<{ tag: string; count: number }>
}

const RADIUS = 60

/** A window of text around the first match, with every match marked ⟦like this⟧. */
export function excerpt(texts: string[], keywords: readonly string[]): string {
  const lowered = keywords.map((k) => k.toLowerCase()).filter(Boolean)
  for (const text of texts) {
    const lower = text.toLowerCase()
    const at = Math.min(...lowered.map((k) => lower.indexOf(k)).filter((i) => i >= 0))
    if (!Number.isFinite(at)) continue
    const start = Math.max(0, at - RADIUS)
    const end = Math.min(text.length, at + RADIUS * 2)
    return (start > 0 ? '…' : '') + mark(text.slice(start, end), lowered) + (end < text.length ? '…' : '')
  }
  const first = texts.find((t) => t.trim()) ?? ''
  return first.length > RADIUS * 3 ? first.slice(0, RADIUS * 3) + '…' : first
}

function mark(text: string, lowered: string[]): string {
  if (lowered.length === 0) return text
  const pattern = new RegExp(lowered.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi')
  return text.replace(pattern, (m) => `⟦${m}⟧`)
}
