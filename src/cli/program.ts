/**
 * The `timegrounded` program: commander, the subcommands it is given, and how
 * its outcome becomes an exit code. A thin shell: each subcommand lives in
 * `commands/` and registers itself here; computing never prints, only the
 * command actions write to streams and set the exit code.
 * Exit codes: 0 clean, 1 problems found (invalid data, incomplete run, gate),
 * 2 usage or data error, 3 internal error.
 * Run by the launcher (main.ts) from a bundle that holds the commands it needs.
 */
import { Command, CommanderError } from 'commander'
import { HARNESS_VERSION } from '../version.js'
import { EXIT } from './exit-codes.js'

/** Adds one subcommand to the program. */
export type Register = (program: Command) => void
/** The subcommands a bundle holds, by name, in help order: each module is imported only when its command runs. */
export type CommandModules = Readonly<Record<string, () => Promise<Register>>>

function newProgram(): Command {
  return new Command()
    .name('timegrounded')
    .description('Test whether a conversational memory store places facts in time correctly.')
    .version(HARNESS_VERSION)
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
}

const HELP_FLAGS: readonly string[] = ['-h', '--help']

/**
 * `args`, but where they name a command the program does not have and ask for help (`bogus --help`,
 * `--help bogus`, `help bogus`), without the asking: commander would print the general help and exit
 * 0, as though the name were fine, where the name alone gets "unknown command" and exit 2. Words after
 * `--` are an adapter's, never a command.
 */
function unknownCommandUnhelped(args: readonly string[], program: Command): string[] {
  const end = args.indexOf('--')
  const own = end === -1 ? args : args.slice(0, end)
  const words = own.filter((arg) => !arg.startsWith('-'))
  const asked = words[0] === 'help' ? words[1] : words[0]
  const known = (name: string): boolean => name === 'help' || program.commands.some((command) => command.name() === name || command.aliases().includes(name))
  const asksHelp = words[0] === 'help' || own.some((arg) => HELP_FLAGS.includes(arg))
  if (asked === undefined || known(asked) || !asksHelp) return [...args]
  const kept = own.filter((arg) => !HELP_FLAGS.includes(arg))
  return [...(kept[0] === 'help' ? kept.slice(1) : kept), ...(end === -1 ? [] : args.slice(end))]
}

/** Parses `args` (the command line after `node main.js`) with every command of `commands` registered, and sets the exit code. */
export async function runProgram(args: readonly string[], commands: CommandModules): Promise<void> {
  const program = newProgram()
  // `run … -- COMMAND`: its adapter process starts now, its start-up overlapping ours (see early-adapter.ts).
  const earlyAdapter = args[0] === 'run' && args.includes('--') ? await import('./early-adapter.js') : null
  await earlyAdapter?.startEarlyAdapter([...args])
  for (const register of await Promise.all(Object.values(commands).map((load) => load()))) register(program)
  try {
    await program.parseAsync(unknownCommandUnhelped(args, program), { from: 'user' })
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0; every other parse problem is a usage error.
      process.exitCode = error.exitCode === 0 ? EXIT.clean : EXIT.usage
    } else {
      process.stderr.write(`timegrounded: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
      process.exitCode = EXIT.internal
    }
  } finally {
    await earlyAdapter?.closeEarlyAdapter()
  }
}
