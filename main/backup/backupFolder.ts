import { lstat, readdir, realpath } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { AppError } from '@shared/errors'
import { isInside } from '../kernel/isInside'

/**
 * A folder the user typed for backups (a window names it: browser mode has no native picker):
 * absolute, not a link, a folder if it exists, and never inside the data folder — a backup
 * there would copy itself, and a restore there would write into the live data. Where it does
 * not exist yet, its nearest existing parent decides where it really lies.
 */
export async function checkOutsideHome(typed: string, home: string, what: string): Promise<string> {
  if (!isAbsolute(typed)) throw new AppError('bad_input', `${what} must be an absolute path, got "${typed}"`)
  const folder = resolve(typed)
  const existing = await nearestExisting(folder)
  if (existing === folder) {
    const st = await lstat(folder)
    if (st.isSymbolicLink()) throw new AppError('bad_input', `${what} "${folder}" is a link; name the folder itself`)
    if (!st.isDirectory()) throw new AppError('bad_input', `${what} "${folder}" is not a folder`)
  }
  const real = join(await realpath(existing), relative(existing, folder))
  const realHome = await realpath(home).catch(() => resolve(home))
  if (isInside(real, realHome) || isInside(folder, resolve(home)))
    throw new AppError('bad_input', `${what} "${folder}" lies inside the data folder; pick one outside it`)
  return folder
}

/**
 * Where a restore may write: a folder that does not exist yet (or is empty) under an existing
 * parent, outside the live data folder. Restoring never merges into or replaces anything.
 */
export async function checkNewHome(typed: string, liveHome: string | null): Promise<string> {
  const what = 'The new data folder'
  if (!isAbsolute(typed)) throw new AppError('bad_input', `${what} must be an absolute path, got "${typed}"`)
  const folder = liveHome ? await checkOutsideHome(typed, liveHome, what) : resolve(typed)
  const parent = await lstat(dirname(folder)).catch(() => null)
  if (!parent?.isDirectory())
    throw new AppError('bad_input', `${what}'s parent "${dirname(folder)}" does not exist or is not a folder`)
  const st = await lstat(folder).catch(() => null)
  if (st && (!st.isDirectory() || (await readdir(folder)).length > 0))
    throw new AppError('conflict', `${what} "${folder}" already exists and is not empty; name a new folder`, {
      key: 'new_home_not_empty',
      params: { folder },
    })
  return folder
}

async function nearestExisting(path: string): Promise<string> {
  let at = path
  for (;;) {
    if (
      await lstat(at).then(
        () => true,
        () => false,
      )
    )
      return at
    const up = dirname(at)
    if (up === at) return at
    at = up
  }
}
