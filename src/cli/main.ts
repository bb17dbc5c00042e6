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

// Two V8 settings for a command that lives well under a second. A setting of the
// user's own (the node command line, NODE_OPTIONS) wins over each.
const userSet = (name: string): boolean =>
  [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes(name) || arg.includes(name.replaceAll('-', '_')))
// V8 doubles its young generation (up to 16 MiB a half) while a command
// allocates, although what survives stays near 12 MiB: kept at its starting
// size it costs a few more quick collections and 13 MiB less peak memory. The
// maximum cannot be changed once the process runs, but the growth factor is read
// each time it would grow.
if (!userSet('semi-space')) setFlagsFromString('--semi-space-growth-factor=1')
// V8 hands a function to its optimizing compiler after about 66 KiB of its
// bytecode has run: tuned for pages and servers that run for minutes, it has a
// command compile dozens of functions it then calls a few hundred times more.
// At about a MiB only the loops that do run long (the bootstrap's draws, a
// large split's rows) are compiled: less CPU for every command and 2-4 MiB
// less peak memory (docs/performance.md). Read at each check, so it holds from here.
if (!userSet('interrupt-budget')) setFlagsFromString('--interrupt-budget=1048576')
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

// A reader that stops early (`timegrounded run --help | head -3`) closes the pipe: what is left
// to print has nobody to read it. Leave quietly, with the exit code already decided (a gate's
// verdict is set before its summary is printed), instead of an unhandled EPIPE's stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error
  process.exit(process.exitCode ?? EXIT.clean)
})

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
await earlyAdapter?.startEarlyAdapter(args)

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
