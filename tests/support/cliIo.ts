import type { CliIo } from '../../main/cli'

/** What a command prints, kept; `onServing` runs while `serve` serves (default: stop at once). */
export function cliIo(onServing?: (out: string[]) => Promise<void>) {
  const out: string[] = []
  const err: string[] = []
  const cli: CliIo = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: {},
    untilStopped: () => (onServing ? onServing(out) : Promise.resolve()),
  }
  return { cli, out, err }
}
