// VizPrompt text format (seed §3–5): a git-friendly folder mirror of the graph, usable as a
// library from scripts, the CLI and, later, the app's own import/export commands.
export { exportVizprompt, renderExport, snapshot, type ExportOptions, type ExportResult } from './exportVizprompt'
export { importVizprompt, type ImportSummary, type SkippedItem } from './importVizprompt'
export { readExport, type ExportContents, type FlowFile, type NodeFile } from './readExport'
export type { Collision } from './collisions'
export type { VizpromptDeps } from './deps'
export { VizpromptError } from './vizpromptError'
export { nodeXml, parseNodeXml } from './nodeXml'
export { flowYaml, parseFlowYaml } from './flowYaml'
