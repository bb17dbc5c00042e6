/**
 * `timegrounded baseline NAME`: a reference baseline as a `tivarq.adapter.v1`
 * process on stdin/stdout, e.g. `timegrounded run -- timegrounded baseline latest`.
 */
import { Argument, type Command } from 'commander'
import { BUILTIN_ADAPTERS, BUILTIN_NAMES, builtinAdapter } from '../../adapters/baselines/index.js'
import { serveNdjson } from '../../adapters/serve.js'

/** Add `timegrounded baseline <name>` to the CLI. */
export function registerBaseline(program: Command): void {
  program
    .command('baseline')
    .description('Serve a reference baseline over the NDJSON adapter protocol (tivarq.adapter.v1) on stdin/stdout.')
    .addArgument(new Argument('<name>', 'which baseline').choices(BUILTIN_NAMES))
    .addHelpText(
      'after',
      `\nBaselines:\n${BUILTIN_NAMES.map((name) => `  ${name.padEnd(Math.max(...BUILTIN_NAMES.map((n) => n.length)))} ${BUILTIN_ADAPTERS[name].description} (${BUILTIN_ADAPTERS[name].track} track)`).join('\n')}\n\nExample:\n  timegrounded run --split smoke --output out/latest -- timegrounded baseline latest\n`,
    )
    .action(async (name: string) => {
      await serveNdjson(builtinAdapter(name), process.stdin, process.stdout)
    })
}
