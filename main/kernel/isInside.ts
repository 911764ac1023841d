import { isAbsolute, relative, sep } from 'node:path'

/**
 * True when `path` is `folder` or lies below it, both already resolved (and, where links
 * matter, already real paths). The one rule every path check of the app uses: a name like
 * `..notes` inside the folder is inside; `..` and `../x` are not.
 */
export function isInside(path: string, folder: string): boolean {
  const r = relative(folder, path)
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r))
}
