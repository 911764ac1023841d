import type { PlaybookName } from '@shared/contract'
import routes from '../../../assets/playbooks/meta_router.json'

/**
 * The meta router (seed 000): the first route, most specific first, with a keyword in the
 * user's words picks its playbook; no keyword means normal chat (null). English keywords
 * match whole words only, so "edit" does not fire inside "credit". The chat routes on the
 * seed's own keywords only: a reply taken over by a playbook should never be a surprise.
 */
export function routePlaybook(text: string, options: { seedKeywordsOnly?: boolean } = {}): PlaybookName | null {
  const lower = text.toLowerCase()
  for (const route of routes.routes) {
    const words = options.seedKeywordsOnly ? route.keywords : [...route.keywords, ...route.also]
    if (words.some((k) => contains(lower, k.toLowerCase()))) return route.playbook as PlaybookName
  }
  return null
}

function contains(text: string, keyword: string): boolean {
  if (!/^[\x20-\x7e]+$/.test(keyword)) return text.includes(keyword)
  const escaped = keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(^|[^a-z0-9])${escaped}($|[^a-z0-9])`).test(text)
}
