import { ImportFileError } from '../../kernel/importFileError'

export { lineAtOffset } from '../../kernel/importFileError'

/** A problem with a file of a VizPrompt export being imported (see ImportFileError). */
export class VizpromptError extends ImportFileError {
  constructor(file: string, line: number | null, reason: string) {
    super(file, line, reason)
    this.name = 'VizpromptError'
  }
}
