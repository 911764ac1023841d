import { AppError } from '@shared/errors'

/** Names Windows reserves for devices, with or without an extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i

/**
 * A story's name is its folder's name under `scenarios/`, on every file system the app runs on:
 * anything a file system would misread is refused, with the reason, before anything is made.
 * The name is kept in Unicode's composed form (NFC): "Café" typed on macOS (often NFD) and on
 * Windows (NFC) is one story, not two folders that APFS would open as the same one.
 */
export function checkStoryName(raw: string): string {
  const name = raw.normalize('NFC').trim()
  const refuse = (why: string) => {
    throw new AppError('bad_input', `story name "${raw}": ${why}`)
  }
  if (!name) refuse('the story needs a name')
  if (/\p{Surrogate}/u.test(name)) refuse('the name has a broken character (an unpaired surrogate)')
  if (/[\\/]/.test(name)) refuse('a name cannot contain / or \\')
  if (name === '.' || name === '..' || name.includes('..')) refuse('a name cannot contain ".."')
  if (/[<>:"|?*]/.test(name)) refuse('a name cannot contain < > : " | ? or *')
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) refuse('a name cannot contain control characters')
  if (RESERVED.test(name)) refuse('this name is reserved by Windows')
  if (/[. ]$/.test(name)) refuse('a name cannot end with a dot or a space')
  if (name.startsWith('.')) refuse('a name cannot start with a dot')
  if (Buffer.byteLength(name, 'utf8') > 200) refuse('the name is too long for a folder')
  return name
}

/**
 * What two names must not share to be two stories: macOS and Windows file systems ignore case,
 * and APFS and HFS+ the Unicode form, so "café", "CAFÉ" and "cafe\u0301" are one folder there.
 */
export function storyNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase()
}
