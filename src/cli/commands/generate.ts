/**
 * `timegrounded generate --out DIR [--variant SEED [--without VARIATION…]]`
 * (`--dataset DIR` is upstream's spelling of `--out`): write the TIVARQ v1
 * dataset (six JSONL files and manifest.json), byte for byte as published, or
 * a seeded variant of it in the same schema, and print one line per file with
 * its size and SHA-256. Exit 0 on success, 2 on usage or write errors.
 */
import { Option, type Command } from 'commander'
import { TimegroundedError } from '../../errors.js'
import { writeDataset } from '../../tivarq/generate.js'
import type { GenerateOptions, WrittenDatasetFile } from '../../tivarq/generate.js'
import { VARIATIONS, describeVariant, resolveVariant, type VariantOptions, type VariationName } from '../../tivarq/variant.js'
import { VARIANT_GENERATOR, VARIANT_GENERATOR_VERSION } from '../../tivarq/variant.js'
import { describeWriteError } from '../../harness/write-errors.js'
import { EXIT, fail, UsageError, rangeArgument } from '../exit-codes.js'

interface GenerateCommandOptions {
  out?: string
  dataset?: string
  variant?: number
  without?: VariationName[]
}

/** The directory to write: `--out`, or its upstream spelling `--dataset`; one of them, or both naming the same place. */
function outputDirectory(options: GenerateCommandOptions): string {
  const { out, dataset } = options
  if (out !== undefined && dataset !== undefined && out !== dataset) {
    throw new UsageError(
      `\`--out ${out}\` and \`--dataset ${dataset}\` name two directories; \`--dataset\` is another spelling of \`--out\`, so give one of them.`,
    )
  }
  const dir = out ?? dataset
  if (dir === undefined) throw new UsageError('say where to write: `--out DIR` (or `--dataset DIR`, as upstream spells it).')
  return dir
}

/** One summary line per written file: `<name>  <bytes> bytes  sha256 <hex>`, then what was written. */
function renderGenerateSummary(files: readonly WrittenDatasetFile[], dir: string, what: string): string {
  const width = Math.max(...files.map((file) => file.name.length))
  const lines = files.map((file) => `${file.name.padEnd(width)}  ${String(file.bytes).padStart(7)} bytes  sha256 ${file.sha256}`)
  lines.push(`Wrote ${what} (${files.length} files) to ${dir} (${what === 'TIVARQ v1' ? 'dataset: TIVARQ' : 'a variant of the TIVARQ dataset'}, CC BY 4.0).`)
  return `${lines.join('\n')}\n`
}

/** The variant `--variant` and `--without` ask for, as generator options. */
function variantOptions(seed: number, without: readonly VariationName[]): VariantOptions {
  const off = (name: VariationName): false | undefined => (without.includes(name) ? false : undefined)
  return {
    seed,
    paraphrases: off('paraphrases'),
    topics: off('topics'),
    mixedOffsets: off('mixed_offsets'),
    sameInstantReplays: off('same_instant_replays'),
    shuffledArrivals: off('shuffled_arrivals'),
  }
}

/** Register `generate` on the CLI program. */
export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description('Write the TIVARQ v1 dataset (6 JSONL files + manifest.json), identical to the published files, or a seeded variant of it.')
    .option('--out <dir>', 'directory to write into (created if missing; existing dataset files are replaced) (required)')
    .option('--dataset <dir>', 'the same as --out, as the upstream harness spells it')
    .option(
      '--variant <seed>',
      'write the variant with this seed (a whole number) instead of v1: same families, splits and counts, new wording, topics, instants and arrival orders',
      rangeArgument('seed'),
    )
    .addOption(new Option('--without <variation...>', 'with --variant: switch these variations off').choices(VARIATIONS))
    .addHelpText(
      'after',
      `\nExamples:\n  timegrounded generate --out ./tivarq\n  timegrounded generate --variant 7 --out ./tivarq-v7\n\nA variant is byte-identical for the same seed and generator version (${VARIANT_GENERATOR} v${VARIANT_GENERATOR_VERSION}); its manifest.json records both.`,
    )
    .action(async (options: GenerateCommandOptions) => {
      let dir: string
      try {
        dir = outputDirectory(options)
      } catch (error) {
        if (error instanceof UsageError) return fail('generate', `${error.message}\nSee \`timegrounded generate --help\`.`, EXIT.usage)
        throw error
      }
      const flag = options.out !== undefined ? '--out' : '--dataset'
      if (options.without !== undefined && options.variant === undefined) {
        return fail(
          'generate',
          '`--without` switches variations of a variant off, so it needs `--variant SEED`; drop `--without` to write TIVARQ v1.',
          EXIT.usage,
        )
      }
      let generate: GenerateOptions = {}
      let what = 'TIVARQ v1'
      if (options.variant !== undefined) {
        const variant = variantOptions(options.variant, options.without ?? [])
        try {
          const resolved = resolveVariant(variant)
          what = describeVariant({ seed: resolved.seed, generator: VARIANT_GENERATOR, version: VARIANT_GENERATOR_VERSION, variations: resolved.variations })
        } catch (error) {
          if (error instanceof TimegroundedError) return fail('generate', `\`--variant ${options.variant}\`: ${error.message}`, EXIT.usage)
          throw error
        }
        generate = { variant }
      }
      let files: WrittenDatasetFile[]
      try {
        files = await writeDataset(dir, generate)
      } catch (error) {
        // File-system refusals (EACCES, ENOTDIR, EEXIST...) are the user's to fix; anything else is ours.
        if (!(error instanceof Error && 'syscall' in error)) throw error
        return fail('generate', `cannot write the dataset to \`${flag} ${dir}\`: ${describeWriteError(error, dir)}.`, EXIT.usage)
      }
      process.stdout.write(renderGenerateSummary(files, dir, what))
    })
}
