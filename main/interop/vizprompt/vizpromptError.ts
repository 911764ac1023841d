import { AppError } from '@shared/errors'

/**
 * A problem with a file of an export being imported. The message starts with the file
 * (relative to the export folder) and, when known, the line: `nodes/00/01.xml:12: …`,
 * the form editors and terminals turn into a link.
 */
export class VizpromptError extends AppError {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
  ) {
    super('bad_input', `${file}${line === null ? '' : `:${line}`}: ${reason}`)
    this.name = 'VizpromptError'
  }
}

/** 1-based line of a character offset. */
export function lineAtOffset(text: string, offset: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++
  return line
}
