/**
 * Every subcommand's module, in help order, each imported only when its
 * command runs: the program of the bundle that holds them all (help, a command
 * we do not know). A bundle of one command is given that command alone
 * (scripts/build-cli.js).
 */
import type { CommandName } from './command-names.js'
import type { Register } from './program.js'

// Keyed by CommandName: the launcher's list of commands (command-names.ts, which must not import
// these modules) and this one cannot drift apart, a command missing or extra on either side fails to compile.
export const COMMAND_MODULES: Readonly<Record<CommandName, () => Promise<Register>>> = {
  corpus: async () => (await import('./commands/corpus.js')).registerCorpus,
  probe: async () => (await import('./commands/probe.js')).registerProbe,
  run: async () => (await import('./commands/run.js')).registerRun,
  score: async () => (await import('./commands/score.js')).registerScore,
  compare: async () => (await import('./commands/compare.js')).registerCompare,
  reference: async () => (await import('./commands/reference.js')).registerReference,
  generate: async () => (await import('./commands/generate.js')).registerGenerate,
  merge: async () => (await import('./commands/merge.js')).registerMerge,
  validate: async () => (await import('./commands/validate.js')).registerValidate,
  fuzz: async () => (await import('./commands/fuzz.js')).registerFuzz,
}
