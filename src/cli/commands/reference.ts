/**
 * `timegrounded reference NAME`: a reference store as a `tivarq.adapter.v1`
 * process on stdin/stdout, e.g. `timegrounded run -- timegrounded reference latest`.
 */
import { Argument, type Command } from 'commander'
import { REFERENCE_STORE_NAMES, REFERENCE_STORES, referenceStore } from '../../adapters/reference/index.js'
import { serveNdjson } from '../../adapters/serve.js'

/** Add `timegrounded reference <name>` to the CLI. */
export function registerReference(program: Command): void {
  const width = Math.max(...REFERENCE_STORE_NAMES.map((name) => name.length))
  const listed = REFERENCE_STORE_NAMES.map((name) => `  ${name.padEnd(width)} ${REFERENCE_STORES[name].description} (${REFERENCE_STORES[name].track} track)`)
  program
    .command('reference')
    .description('Serve a reference store over the NDJSON adapter protocol (tivarq.adapter.v1) on stdin/stdout.')
    .addArgument(new Argument('<name>', 'which reference store').choices(REFERENCE_STORE_NAMES))
    .addHelpText(
      'after',
      `\nReference stores:\n${listed.join('\n')}\n\nExample:\n  timegrounded run --split smoke --output out/latest -- timegrounded reference latest\n`,
    )
    .action(async (name: string) => {
      await serveNdjson(referenceStore(name), process.stdin, process.stdout)
    })
}
