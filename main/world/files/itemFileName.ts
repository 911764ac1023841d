import { randomUUID } from 'node:crypto'

/** The seed's naming rule: `YYYYMMDD_HHMMSS_<uuid>.<ext>`, local time, so files sort by when they arrived. */
export function itemFileName(ext: string, now: Date = new Date(), uuid: string = randomUUID()): string {
  if (!/^[a-z0-9]{1,8}$/.test(ext)) throw new Error(`bad file extension "${ext}"`)
  return `${timeStamp(now)}_${uuid}.${ext}`
}

/** `YYYYMMDD_HHMMSS` in local time: the prefix of every name we give a file or folder. */
export function timeStamp(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0')
  return (
    `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}_` +
    `${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`
  )
}

/** What an item file may be called: our own names only (plus `.summary.txt` beside them). */
export const ITEM_FILE_NAME = /^\d{8}_\d{6}_[0-9a-f-]{36}\.[a-z0-9]{1,8}(\.summary\.txt)?$/

/** The summary lives beside its file: `<file>.summary.txt`. */
export function summaryFileName(fileName: string): string {
  return `${fileName}.summary.txt`
}
