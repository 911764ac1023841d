import { AppError, type ErrorCode } from '@shared/errors'

/**
 * A problem with a file being imported. The message starts with the file (as the user
 * knows it: relative to an export folder, or the name they gave) and, when known, the
 * line: `nodes/00/01.xml:12: …`, the form editors and terminals turn into a link. The
 * reason says what was wrong and never quotes the file's text: the file may be anything
 * the process can read.
 */
export class ImportFileError extends AppError {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
    code: ErrorCode = 'bad_file',
  ) {
    super(code, `${file}${line === null ? '' : `:${line}`}: ${reason}`)
    this.name = 'ImportFileError'
  }
}

/** 1-based line of a character offset. */
export function lineAtOffset(text: string, offset: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++
  return line
}
