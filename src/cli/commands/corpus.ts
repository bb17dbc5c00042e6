/**
 * `timegrounded corpus --out FILE`: generate the authored time-grounded corpus
 * (12 questions) as LongMemEval JSON, after checking every corpus rule.
 * Exit 0 written, 2 usage error or a broken rule.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Command } from 'commander'
import { TimegroundedError } from '../../errors.js'
import { buildCorpus } from '../../timegrounded/corpus/index.js'
import { describeWriteError } from '../fs-errors.js'
import { EXIT, fail } from '../exit-codes.js'

interface CorpusCommandOptions {
  out: string
}

/** Register `corpus` on the CLI program. */
export function registerCorpus(program: Command): void {
  program
    .command('corpus')
    .description('Write the authored time-grounded corpus (12 questions, relative dates only) as LongMemEval JSON.')
    .requiredOption('--out <file>', 'where to write the JSON (e.g. fixtures/timegrounded/timegrounded-v1.json)')
    .action(async (options: CorpusCommandOptions) => {
      try {
        const corpus = buildCorpus()
        await mkdir(dirname(options.out), { recursive: true })
        await writeFile(options.out, corpus.text)
        process.stdout.write(`wrote ${corpus.items.length} questions of ${corpus.datasetId} to ${options.out} (sha256 ${corpus.datasetSha256})\n`)
      } catch (error) {
        if (!(error instanceof TimegroundedError) && !(error instanceof Error && 'code' in error)) throw error
        const reason = error instanceof TimegroundedError ? error.message : `cannot write \`--out ${options.out}\`: ${describeWriteError(error, options.out)}.`
        fail('corpus', reason, EXIT.usage)
      }
    })
}
