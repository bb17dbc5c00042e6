/**
 * `timegrounded validate [--dataset DIR] [--json]`: check a TIVARQ directory
 * (default: the bundled fixtures) and print a readable summary, or the
 * validation result as JSON, led for a valid dataset by the keys upstream's
 * `tivarq validate` prints. Exit 0 valid, 1 invalid, 2 usage error.
 */
import { stat } from 'node:fs/promises'
import { Option, type Command } from 'commander'
import { SPLITS, type Split } from '../../tivarq/vocabulary.js'
import { renderValidationResult, validateDataset, type ValidationResult } from '../../tivarq/validate.js'
import { EXIT, fail, validationExitCode, rangeArgument } from '../exit-codes.js'

interface ValidateCommandOptions {
  dataset?: string
  json?: boolean
  maxIssues: number
  split?: Split[]
}

/** Upstream's summary of a valid dataset: episode and probe totals, families, episodes per split (of the splits checked). */
interface UpstreamValidationSummary {
  episodes: number
  probes: number
  families: number
  split_counts: Partial<Record<Split, number>>
}

/** `--json`: upstream's keys first when the dataset is valid (upstream prints nothing but an error otherwise), then ours. */
function validationJson(result: ValidationResult): (UpstreamValidationSummary & ValidationResult) | ValidationResult {
  if (result.status === 'invalid') return result
  const split_counts: Partial<Record<Split, number>> = {}
  let episodes = 0
  let probes = 0
  for (const split of result.splits) {
    const counts = result.counts[split] ?? { episodes: 0, probes: 0 }
    split_counts[split] = counts.episodes
    episodes += counts.episodes
    probes += counts.probes
  }
  return { episodes, probes, families: result.manifest.families.length, split_counts, ...result }
}

/** Register `validate` on the CLI program. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('Check a TIVARQ directory: manifest hashes, every row, gold answers, ids and canonical counts.')
    .option('--dataset <dir>', 'TIVARQ directory to check (default: the bundled TIVARQ v1 fixtures)')
    .option('--json', "print the validation result as JSON instead of a summary (upstream's episodes, probes, families, split_counts first)")
    .option('--max-issues <n>', 'list at most this many issues (the rest are counted)', rangeArgument('maxIssues'), 100)
    .addOption(new Option('--split <split...>', 'check only these splits').choices(SPLITS))
    .action(async (options: ValidateCommandOptions) => {
      if (options.dataset !== undefined) {
        const isDirectory = await stat(options.dataset).then(
          (info) => info.isDirectory(),
          () => false,
        )
        if (!isDirectory) {
          return fail(
            'validate',
            `\`--dataset ${options.dataset}\` is not a directory; pass the folder that holds manifest.json and the episodes_*/probes_* files.`,
            EXIT.usage,
          )
        }
      }
      const result = await validateDataset(options.dataset, { maxIssues: options.maxIssues, ...(options.split ? { splits: options.split } : {}) })
      process.stdout.write(options.json ? `${JSON.stringify(validationJson(result), null, 2)}\n` : renderValidationResult(result))
      process.exitCode = validationExitCode(result)
    })
}
