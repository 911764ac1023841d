import { JSONParser } from '@streamparser/json'
import { firstInvalidLine, openImportFile, type ImportFileOptions } from './importFile'
import { ImportFileError } from './importFileError'

/** Bytes read (and parsed) at a time: a few milliseconds of work between turns of the event loop. */
const CHUNK_BYTES = 256 * 1024

/**
 * The elements of a file holding one JSON array, read as a stream: each chunk is decoded (UTF-8,
 * refused with its line when invalid, as NUL is) and fed to a streaming parser, which hands over
 * each element once it is whole. No step parses the whole file: JSON.parse of a 20 MB export
 * held the event loop ~0.3 s. The file is checked as every import's is (a regular file, no link,
 * within `maxBytes`). `notArray` is the reason given when the file holds JSON but no array.
 */
export async function readJsonArray(
  path: string,
  options: ImportFileOptions & { notArray: string },
): Promise<unknown[]> {
  const { name } = options
  const handle = await openImportFile(path, options)
  const items: unknown[] = []
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false })
  let top: 'unknown' | 'array' = 'unknown'
  parser.onValue = ({ value, stack }) => {
    if (stack.length === 1) items.push(value)
  }
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let line = 1
  let first = true
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false, highWaterMark: CHUNK_BYTES })) {
      let text: string
      try {
        text = decoder.decode(chunk as Buffer, { stream: true })
      } catch {
        throw new ImportFileError(name, line - 1 + firstInvalidLine(chunk as Buffer), 'is not valid UTF-8 text')
      }
      if (first) text = text.replace(/^\uFEFF/, '')
      first = false
      const nul = text.indexOf('\0')
      if (nul !== -1) throw new ImportFileError(name, line + count(text.slice(0, nul), '\n'), 'holds a NUL character')
      if (top === 'unknown' && text.trim() !== '') {
        if (!text.trimStart().startsWith('[')) throw new ImportFileError(name, null, options.notArray)
        top = 'array'
      }
      feed(parser, text, name, line)
      line += count(text, '\n')
    }
    feed(parser, decoder.decode(), name, line)
    if (top === 'unknown') throw new ImportFileError(name, null, 'is not JSON (the file is empty)')
    if (!parser.isEnded) parser.end()
  } catch (e) {
    if (e instanceof ImportFileError) throw e
    throw new ImportFileError(name, null, `is not JSON (${(e as Error).message})`)
  } finally {
    await handle.close()
  }
  return items
}

function feed(parser: JSONParser, text: string, name: string, line: number): void {
  if (text === '') return
  try {
    parser.write(text)
  } catch (e) {
    throw new ImportFileError(name, null, `is not JSON (${(e as Error).message}; near line ${line})`)
  }
}

function count(text: string, char: string): number {
  let n = 0
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++
  return n
}
