// The loomverse/layers lint rule: every import inside main/ is checked against main/layers.json,
// in the spirit of VS Code's code-layering rule. Kernel folders import lower kernel folders;
// a domain imports the kernel and the public modules of the domains listed for it; composition
// roots import anything. Production code never imports test support, and only app/ imports
// Electron. Test files (*.test.ts) compose freely and are not checked.
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const mainDir = join(root, 'main')
export const layers = JSON.parse(readFileSync(join(mainDir, 'layers.json'), 'utf8'))

const kernel = Object.keys(layers.kernel)
const domains = Object.keys(layers.domains)
const isRoot = (unit) => layers.roots.includes(unit)

/** The folder (or top-level file) of main/ a path belongs to; null outside main/. */
function unitOf(file) {
  const rel = relative(mainDir, file)
  if (rel.startsWith('..') || rel === '') return null
  return rel.split(sep)[0]
}

/** Why `from` may not import `target` (both absolute), or null when it may. */
export function layerViolation(from, target) {
  const source = unitOf(from)
  if (source === null) return null
  const relTarget = relative(root, target)
  if (relTarget.startsWith(`tests${sep}`) || relTarget.startsWith(`e2e${sep}`) || relTarget.startsWith(`bench${sep}`))
    return 'production code in main/ never imports test support or benchmarks; inject what a test needs'
  const unit = unitOf(target)
  if (unit === null || unit === source || isRoot(source)) return null
  if (isRoot(unit)) return `main/${source} may not import the composition root main/${unit}`
  if (kernel.includes(source)) {
    return layers.kernel[source].includes(unit)
      ? null
      : `the kernel (main/${source}) imports only the kernel floors below it (${layers.kernel[source].join(', ') || 'none'}), not main/${unit}`
  }
  if (domains.includes(source)) {
    if (kernel.includes(unit)) return null
    if (!layers.domains[source].includes(unit))
      return `main/${source} may not import the domain main/${unit} (main/layers.json lists what it may: ${layers.domains[source].join(', ') || 'only the kernel'})`
    const module = relative(join(mainDir, unit), target).replace(/\.(ts|tsx|js)$/, '')
    const offered = layers.public[unit] ?? []
    return offered.includes(module)
      ? null
      : `main/${source} may reach main/${unit} only through its public modules (${offered.join(', ')}), not ${unit}/${module}`
  }
  return `main/${source} is not in main/layers.json: add it to a floor before it imports main/${unit}`
}

function check(context, node, spec) {
  if (typeof spec !== 'string') return
  const from = context.filename
  if (!from.startsWith(mainDir + sep) || from.endsWith('.test.ts')) return
  if (spec === 'electron' || spec.startsWith('electron/')) {
    if (!layers.electron.includes(unitOf(from)))
      context.report({ node, message: 'Only main/app imports Electron: the rest of main/ also runs under plain Node.' })
    return
  }
  if (!spec.startsWith('.')) return
  const message = layerViolation(from, resolve(dirname(from), spec))
  if (message) context.report({ node, message })
}

export const layersPlugin = {
  rules: {
    layers: {
      meta: { type: 'problem', docs: { description: 'The floors of main/ (main/layers.json)' }, schema: [] },
      create(context) {
        const source = (node) => check(context, node, node.source?.value)
        return {
          ImportDeclaration: source,
          ExportNamedDeclaration: source,
          ExportAllDeclaration: source,
          ImportExpression: source,
        }
      },
    },
  },
}
