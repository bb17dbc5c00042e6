#!/usr/bin/env node
/**
 * The `timegrounded` command. A thin shell: each subcommand lives in
 * `commands/` and registers itself here; computing never prints, only the
 * command actions write to streams and set the exit code.
 * Exit codes: 0 clean, 1 problems found (invalid data, incomplete run, gate),
 * 2 usage or data error, 3 internal error.
 */
import { Command, CommanderError } from 'commander'
import { HARNESS_VERSION } from '../version.js'
import { EXIT } from './exit-codes.js'
// Subcommands (one import and one call each; keep them in this order).
// @register-imports
import { registerCorpus } from './commands/corpus.js'
import { registerProbe } from './commands/probe.js'
import { registerRun } from './commands/run.js'
import { registerScore } from './commands/score.js'
import { registerReference } from './commands/reference.js'
import { registerGenerate } from './commands/generate.js'
import { registerMerge } from './commands/merge.js'
import { registerValidate } from './commands/validate.js'
import { registerFuzz } from './commands/fuzz.js'

const program = new Command()
program
  .name('timegrounded')
  .description('Test whether a conversational memory store places facts in time correctly.')
  .version(HARNESS_VERSION)
  .showHelpAfterError()
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) })

// @register-calls
registerCorpus(program)
registerProbe(program)
registerRun(program)
registerScore(program)
registerReference(program)
registerGenerate(program)
registerMerge(program)
registerValidate(program)
registerFuzz(program)

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
}
