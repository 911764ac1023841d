// Loads a TypeScript worker entry through tsx, for tests that run workers from source.
// (Node refuses `--import tsx` in a worker's execArgv; tsx's API works inside the thread.)
import { workerData } from 'node:worker_threads'
import { tsImport } from 'tsx/esm/api'

await tsImport(workerData.tsEntry, { parentURL: import.meta.url, tsconfig: workerData.tsconfig })
