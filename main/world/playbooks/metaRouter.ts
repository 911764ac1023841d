import type { PlaybookName } from '@shared/contract'
import routes from '../../../assets/playbooks/meta_router.json'

/**
 * The meta router (seed 000): the first route, most specific first, with a keyword in the
 * user's words picks its playbook; no keyword means normal chat (null). English keywords
 * match whole words only, so "edit" does not fire inside "credit".
 */
export function routePlaybook(text: string): PlaybookName | null {
  const lower = text.toLowerCase()
  for (const route of routes.routes) {
    if ([...route.keywords, ...route.also].some((k) => contains(lower, k.toLowerCase())))
      return route.playbook as PlaybookName
  }
  return null
}

function contains(text: string, keyword: string): boolean {
  if (!/^[\x20-\x7e]+$/.test(keyword)) return text.includes(keyword)
  const escaped = keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(^|[^a-z0-9])${escaped}($|[^a-z0-9])`).test(text)
}
