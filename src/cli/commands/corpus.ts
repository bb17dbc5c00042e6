/**
 * `timegrounded corpus --out FILE [--size N [--seed S]]`: write the authored
 * time-grounded corpus (12 questions), or a generated one of N questions, as
 * LongMemEval JSON, after checking every corpus rule.
 * Exit 0 written, 2 usage error or a broken rule.
 *
 * `timegrounded corpus --check FILE [--json]`: check any LongMemEval-shaped
 * file against the corpus rules, entry by entry and rule by rule.
 * Exit 0 every rule holds, 1 a rule is broken, 2 usage error or a file that
 * cannot be read or is not LongMemEval-shaped.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Command } from 'commander'
import { TimegroundedError } from '../../errors.js'
import { buildCorpus, checkCorpus, generateCorpus, renderCorpusCheck } from '../../time-grounded/corpus/index.js'
import { loadLongMemEval } from '../../time-grounded/longmemeval.js'
import { DEFAULT_CORPUS_SEED } from '../../time-grounded/corpus/generate.js'
import { describeWriteError } from '../../harness/write-errors.js'
import { EXIT, fail, rangeArgument } from '../exit-codes.js'

interface CorpusCommandOptions {
  out?: string
  size?: number
  seed?: number
  check?: string
  json?: boolean
}

/** `--check FILE`: the rules, checked on a file; exit 1 when one is broken. */
async function checkFile(file: string, json: boolean): Promise<void> {
  const dataset = await loadLongMemEval(file)
  const check = checkCorpus(dataset.items)
  process.stdout.write(json ? `${JSON.stringify({ file, ...check }, null, 2)}\n` : `${renderCorpusCheck(check, dataset.items, file)}\n`)
  process.exitCode = check.ok ? EXIT.clean : EXIT.problems
}

/** The flags `--check` cannot be given with (it writes nothing), or null. */
function checkConflict(options: CorpusCommandOptions): string | null {
  const given = (['out', 'size', 'seed'] as const).filter((key) => options[key] !== undefined).map((key) => `\`--${key}\``)
  return given.length === 0
    ? null
    : `\`--check FILE\` reads a file and writes none, so it takes no ${given.join(', ')}; drop ${given.length === 1 ? 'it' : 'them'}.`
}

/** Register `corpus` on the CLI program. */
export function registerCorpus(program: Command): void {
  program
    .command('corpus')
    .description('Write the authored time-grounded corpus (12 questions, relative dates only), or a generated one of any size, as LongMemEval JSON.')
    .option('--out <file>', 'where to write the JSON (e.g. fixtures/timegrounded/timegrounded-v1.json)')
    .option('--check <file>', 'check a LongMemEval-shaped file against the corpus rules instead, entry by entry and rule by rule (exit 1 when one is broken)')
    .option('--json', 'with --check: print the check as JSON')
    .option('--size <n>', 'generate N questions (three types in turn) under the same rules instead of the authored twelve', rangeArgument('corpusSize'))
    .option('--seed <n>', `seed of the generated corpus (with --size; default: ${DEFAULT_CORPUS_SEED})`, rangeArgument('seed'))
    .addHelpText(
      'after',
      '\nExamples:\n  timegrounded corpus --out fixtures/timegrounded/timegrounded-v1.json\n  timegrounded corpus --size 600 --seed 7 --out corpus-600.json\n  timegrounded corpus --check my-corpus.json\n\n' +
        'Exit codes: 0 written (or, with --check, every rule holds), 1 a rule is broken (--check), 2 usage error, a file that cannot be read or is not LongMemEval-shaped.',
    )
    .action(async (options: CorpusCommandOptions) => {
      if (options.check !== undefined) {
        const conflict = checkConflict(options)
        if (conflict !== null) return fail('corpus', conflict, EXIT.usage)
        try {
          return await checkFile(options.check, options.json === true)
        } catch (error) {
          if (!(error instanceof TimegroundedError)) throw error
          return fail('corpus', error.message, EXIT.usage)
        }
      }
      if (options.json === true) return fail('corpus', '`--json` prints the result of `--check FILE`; give `--check FILE`, or drop `--json`.', EXIT.usage)
      if (options.out === undefined) return fail('corpus', 'give `--out FILE` to write a corpus, or `--check FILE` to check one.', EXIT.usage)
      const out = options.out
      if (options.seed !== undefined && options.size === undefined) {
        return fail('corpus', '`--seed` picks a generated corpus, so it needs `--size N`; drop `--seed` to write the authored twelve.', EXIT.usage)
      }
      try {
        const corpus = options.size === undefined ? buildCorpus() : generateCorpus({ size: options.size, seed: options.seed ?? DEFAULT_CORPUS_SEED })
        await mkdir(dirname(out), { recursive: true })
        await writeFile(out, corpus.text)
        process.stdout.write(`wrote ${corpus.items.length} questions of ${corpus.datasetId} to ${out} (sha256 ${corpus.datasetSha256})\n`)
      } catch (error) {
        if (!(error instanceof TimegroundedError) && !(error instanceof Error && 'code' in error)) throw error
        const reason = error instanceof TimegroundedError ? error.message : `cannot write \`--out ${out}\`: ${describeWriteError(error, out)}.`
        fail('corpus', reason, EXIT.usage)
      }
    })
}
