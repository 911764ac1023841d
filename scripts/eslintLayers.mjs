// The loomverse/layers lint rule: every import inside main/ is checked against main/layers.json,
// in the spirit of VS Code's code-layering rule. Kernel folders import lower kernel folders;
// a domain imports the kernel and the public modules of the domains listed for it; composition
// roots import the kernel, each other, and a domain's public and wiring modules. Production code never imports test support, and only app/ imports
// Electron. Test files (*.test.ts) compose freely and are not checked.
// The loomverse/renderer-layers rule does the same for renderer/src with renderer/src/layers.json:
// app → features → ui/store/bridge → i18n, and no feature imports another.
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const mainDir = join(root, 'main')
const rendererDir = join(root, 'renderer', 'src')
export const layers = JSON.parse(readFileSync(join(mainDir, 'layers.json'), 'utf8'))
export const rendererLayers = JSON.parse(readFileSync(join(rendererDir, 'layers.json'), 'utf8'))

const kernel = Object.keys(layers.kernel)
const domains = Object.keys(layers.domains)
const isRoot = (unit) => layers.roots.includes(unit)

/** The folder (or top-level file) of main/ a path belongs to; null outside main/. */
function unitOf(file) {
  const rel = relative(mainDir, file)
  if (rel.startsWith('..') || rel === '') return null
  return rel.split(sep)[0]
}

/** Whether `target` (absolute) is test support or a benchmark, which production code never imports. */
const isTestSupport = (target) => ['tests', 'e2e', 'bench'].some((dir) => relative(root, target).startsWith(dir + sep))

/** Why `from` may not import `target` (both absolute), or null when it may. */
export function layerViolation(from, target) {
  const source = unitOf(from)
  if (source === null) return null
  if (isTestSupport(target))
    return 'production code in main/ never imports test support or benchmarks; inject what a test needs'
  const unit = unitOf(target)
  if (unit === null || unit === source) return null
  const module = () => relative(join(mainDir, unit), target).replace(/\.(ts|tsx|js)$/, '')
  if (isRoot(source)) {
    if (!domains.includes(unit)) return null
    const offered = [...(layers.public[unit] ?? []), ...(layers.wiring[unit] ?? [])]
    return offered.includes(module())
      ? null
      : `a composition root (main/${source}) reaches main/${unit} only through its public or wiring modules in main/layers.json (${offered.join(', ') || 'none'}), not ${unit}/${module()}`
  }
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
    const offered = layers.public[unit] ?? []
    return offered.includes(module())
      ? null
      : `main/${source} may reach main/${unit} only through its public modules (${offered.join(', ')}), not ${unit}/${module()}`
  }
  return `main/${source} is not in main/layers.json: add it to a floor before it imports main/${unit}`
}

/**
 * The unit of renderer/src a path belongs to: a folder, each feature (`features/graph`) on its
 * own, or a top-level file without its extension (an import names `./main` for main.tsx); null
 * outside renderer/src.
 */
export function rendererUnitOf(file) {
  const rel = relative(rendererDir, file)
  if (rel.startsWith('..') || rel === '') return null
  const [top, feature] = rel.split(sep)
  if (feature === undefined) return top.replace(/\.(tsx?|jsx?)$/, '')
  return top === 'features' ? `features/${feature}` : top
}
const entries = rendererLayers.entry.map((file) => rendererUnitOf(join(rendererDir, file)))

const floorOf = (unit) => (unit.startsWith('features/') ? 'features' : unit)

/** Why `from` may not import `target` (both absolute) in renderer/src, or null when it may. */
export function rendererLayerViolation(from, target) {
  const source = rendererUnitOf(from)
  if (source === null) return null
  if (isTestSupport(target)) return 'production code in renderer/ never imports test support or benchmarks'
  const unit = rendererUnitOf(target)
  if (unit === null || unit === source || entries.includes(source)) return null
  if (entries.includes(unit)) return `renderer/src/${source} may not import the entry renderer/src/${unit}`
  const allowed = rendererLayers.floors[floorOf(source)]
  if (!allowed)
    return `renderer/src/${source} is not in renderer/src/layers.json: add it to a floor before it imports ${unit}`
  if (floorOf(source) === 'features' && floorOf(unit) === 'features')
    return `a feature imports no other feature (${source} → ${unit}): move what both need down to ui/ or store/, or let app/ compose them`
  return allowed.includes(floorOf(unit))
    ? null
    : `renderer/src/${source} may import only ${allowed.join(', ') || 'nothing of the renderer'} (renderer/src/layers.json), not ${unit}`
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

function checkRenderer(context, node, spec) {
  const from = context.filename
  if (typeof spec !== 'string' || !spec.startsWith('.') || from.endsWith('.test.ts')) return
  const message = rendererLayerViolation(from, resolve(dirname(from), spec))
  if (message) context.report({ node, message })
}

/** A rule that runs `check` on every import and re-export of a file. */
const importRule = (description, check) => ({
  meta: { type: 'problem', docs: { description }, schema: [] },
  create(context) {
    const source = (node) => check(context, node, node.source?.value)
    return {
      ImportDeclaration: source,
      ExportNamedDeclaration: source,
      ExportAllDeclaration: source,
      ImportExpression: source,
    }
  },
})

export const layersPlugin = {
  rules: {
    layers: importRule('The floors of main/ (main/layers.json)', check),
    'renderer-layers': importRule('The floors of renderer/src (renderer/src/layers.json)', checkRenderer),
  },
}
