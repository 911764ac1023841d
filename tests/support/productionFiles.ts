import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Every production TypeScript file below `dir` (its tests aside), leaving out the folders named in `skip`. */
export function productionFiles(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return skip.includes(name) ? [] : productionFiles(path, skip)
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : []
  })
}
