/**
 * One answer that fits every memory job (the episode extraction: reflection, entities, facts,
 * loops; a summary, a capsule) and the pack's intent question: each job's schema keeps its own fields and drops the rest, so a
 * test can script a single reply for the lightweight model. `extra` replaces fields, e.g.
 * entities for the entity graph.
 */
export function everyMemoryJobReply(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    emotion_label: 'neutral',
    emotion_intensity: 0.1,
    topic_tags: ['pets'],
    salience: 0.6,
    confidence: 0.7,
    entities: [],
    relations: [],
    facts: [],
    open: [],
    resolved: [],
    summary: 'Talked about pets.',
    mood: 'content',
    focus: 'pets',
    tone: 'warm',
    follow_up: [],
    intent: 'general',
    ...extra,
  })
}
