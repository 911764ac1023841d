import type { MessageBoxOptions, MessageBoxReturnValue } from 'electron'
import { commandLine, type CommandConfirmer, type CommandRequest } from '../mcp/mcpCommands'

/**
 * The desktop app's confirmation of an MCP server's command: a native dialog of the main
 * process, which no page can answer or draw over. Run is not the default: Enter or Esc keeps
 * the command from running. Asked once per server at a time; a second start of the same server
 * waits for the same answer.
 */
export function nativeCommandConfirmer(
  show: (options: MessageBoxOptions) => Promise<Pick<MessageBoxReturnValue, 'response'>>,
): CommandConfirmer {
  const asking = new Map<string, Promise<boolean>>()
  return {
    asksOnStart: true,
    confirm(request) {
      const key = JSON.stringify(request)
      let answer = asking.get(key)
      if (!answer) {
        answer = show(commandDialog(request)).then((r) => r.response === 0)
        asking.set(key, answer)
        void answer.finally(() => asking.delete(key))
      }
      return answer
    },
  }
}

export function commandDialog(request: CommandRequest): MessageBoxOptions {
  const env = request.envNames.length > 0 ? `\nWith the environment variables: ${request.envNames.join(', ')}` : ''
  return {
    type: 'warning',
    title: 'Run an MCP server?',
    message: `The MCP server "${request.server}" wants to run a program on this computer.`,
    detail:
      `${commandLine(request)}\nIn the folder: ${request.cwd}${env}\n\n` +
      'It runs with your rights: it can read and change your files. Run it only if you added this ' +
      'server yourself and trust the program. It is asked again whenever the command changes.',
    buttons: ['Run', "Don't run"],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  }
}
