/**
 * The subcommands, and which bundle of the CLI a command line needs: the one
 * command it names, or every command where the list itself is shown (help, a
 * command we do not know, no command at all).
 */

/** The subcommands, in help order. */
export const COMMAND_NAMES = ['corpus', 'probe', 'run', 'score', 'compare', 'reference', 'generate', 'merge', 'validate', 'fuzz'] as const
export type CommandName = (typeof COMMAND_NAMES)[number]
/** The bundle that holds every command. */
export const ALL_COMMANDS = 'all'

/** Whether `args` is a bare `--version` (or `-V`), which is answered without any command. */
export function isBareVersion(args: readonly string[]): boolean {
  return args.length === 1 && (args[0] === '-V' || args[0] === '--version')
}

/** The bundle `args` needs: the command it names first, else every command (`--help run` shows the program's help, which lists them all). */
export function bundleFor(args: readonly string[]): CommandName | typeof ALL_COMMANDS {
  const at = args.findIndex((arg) => !arg.startsWith('-'))
  if (at === -1) return ALL_COMMANDS
  const first = args[at] as string
  const named = (COMMAND_NAMES as readonly string[]).includes(first) ? (first as CommandName) : null
  return named !== null && !args.slice(0, at).some((arg) => arg === '-h' || arg === '--help') ? named : ALL_COMMANDS
}
