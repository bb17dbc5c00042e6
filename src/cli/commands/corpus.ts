/**
 * `timegrounded corpus --out FILE [--size N [--seed S]]`: write the authored
 * time-grounded corpus (12 questions), or a generated one of N questions, as
 * LongMemEval JSON, after checking every corpus rule.
 * Exit 0 written, 2 usage error or a broken rule.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Command } from 'commander'
import { TimegroundedError } from '../../errors.js'
import { buildCorpus, generateCorpus } from '../../timegrounded/corpus/index.js'
import { DEFAULT_CORPUS_SEED } from '../../timegrounded/corpus/generate.js'
import { describeWriteError } from '../fs-errors.js'
import { EXIT, fail, wholeNumberArgument } from '../exit-codes.js'

interface CorpusCommandOptions {
  out: string
  size?: number
  seed?: number
}

/** Register `corpus` on the CLI program. */
export function registerCorpus(program: Command): void {
  program
    .command('corpus')
    .description('Write the authored time-grounded corpus (12 questions, relative dates only), or a generated one of any size, as LongMemEval JSON.')
    .requiredOption('--out <file>', 'where to write the JSON (e.g. fixtures/timegrounded/timegrounded-v1.json)')
    .option('--size <n>', 'generate N questions (three types in turn) under the same rules instead of the authored twelve', wholeNumberArgument(1))
    .option('--seed <n>', `seed of the generated corpus (with --size; default: ${DEFAULT_CORPUS_SEED})`, wholeNumberArgument(0))
    .addHelpText(
      'after',
      '\nExamples:\n  timegrounded corpus --out fixtures/timegrounded/timegrounded-v1.json\n  timegrounded corpus --size 600 --seed 7 --out corpus-600.json',
    )
    .action(async (options: CorpusCommandOptions) => {
      if (options.seed !== undefined && options.size === undefined) {
        return fail('corpus', '`--seed` picks a generated corpus, so it needs `--size N`; drop `--seed` to write the authored twelve.', EXIT.usage)
      }
      try {
        const corpus = options.size === undefined ? buildCorpus() : generateCorpus({ size: options.size, seed: options.seed ?? DEFAULT_CORPUS_SEED })
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
