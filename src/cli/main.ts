#!/usr/bin/env node
/**
 * The `timegrounded` command. A thin shell: each subcommand lives in
 * `commands/` and registers itself here; computing never prints, only the
 * command actions write to streams and set the exit code.
 * Exit codes: 0 clean, 1 problems found (invalid data, incomplete run, gate),
 * 2 usage or data error, 3 internal error.
 */
import { setFlagsFromString } from 'node:v8'
import { Command, CommanderError } from 'commander'
import { HARNESS_VERSION } from '../version.js'
import { EXIT } from './exit-codes.js'
type Register = (program: Command) => void

// V8 doubles its young generation (up to 16 MiB a half) while a command
// allocates, although what survives stays near 12 MiB: kept at its starting
// size it costs a few more quick collections and 13 MiB less peak memory. The
// maximum cannot be changed once the process runs, but the growth factor is read
// each time it would grow. A setting of the user's own (the node command line,
// NODE_OPTIONS) wins.
if (![...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('semi-space') || arg.includes('semi_space'))) {
  setFlagsFromString('--semi-space-growth-factor=1')
}
// Subcommands, in help order (one line each): each module is imported only when
// its command runs, or when the command list itself is shown (help, a command
// we do not know, no command), so `--version` and every command skip the
// modules of the others.
// @register-imports
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  corpus: async () => (await import('./commands/corpus.js')).registerCorpus,
  probe: async () => (await import('./commands/probe.js')).registerProbe,
  run: async () => (await import('./commands/run.js')).registerRun,
  score: async () => (await import('./commands/score.js')).registerScore,
  reference: async () => (await import('./commands/reference.js')).registerReference,
  generate: async () => (await import('./commands/generate.js')).registerGenerate,
  merge: async () => (await import('./commands/merge.js')).registerMerge,
  validate: async () => (await import('./commands/validate.js')).registerValidate,
  fuzz: async () => (await import('./commands/fuzz.js')).registerFuzz,
}

/** The commands to register for `argv`: none for a bare `--version`, the one named, else all of them (help lists them, a typo is matched against them). */
function commandsFor(argv: readonly string[]): string[] {
  const at = argv.findIndex((arg) => !arg.startsWith('-'))
  if (at === -1) return argv.length === 1 && (argv[0] === '-V' || argv[0] === '--version') ? [] : Object.keys(COMMANDS)
  // `--help run` shows the program's help, which lists every command.
  const first = argv[at] as string
  return Object.hasOwn(COMMANDS, first) && !argv.slice(0, at).some((arg) => arg === '-h' || arg === '--help') ? [first] : Object.keys(COMMANDS)
}

const program = new Command()
program
  .name('timegrounded')
  .description('Test whether a conversational memory store places facts in time correctly.')
  .version(HARNESS_VERSION)
  .showHelpAfterError()
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) })

const args = process.argv.slice(2)
// `run … -- COMMAND`: its adapter process starts now, its start-up overlapping ours (see early-adapter.ts).
const earlyAdapter = args[0] === 'run' && args.includes('--') ? await import('./early-adapter.js') : null
earlyAdapter?.startEarlyAdapter(args)

// @register-calls
const names = commandsFor(args)
for (const register of await Promise.all(names.map((name) => (COMMANDS[name] as () => Promise<Register>)()))) register(program)

try {
  await program.parseAsync(process.argv)
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
