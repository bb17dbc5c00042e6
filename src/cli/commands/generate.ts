/**
 * `timegrounded generate --out DIR` (or upstream's `--dataset DIR`): write the
 * TIVARQ v1 dataset (six JSONL files and manifest.json), byte for byte as
 * published, and print one line per file with its size and SHA-256. Exit 0 on
 * success, 2 on usage or write errors.
 */
import type { Command } from 'commander'
import { writeDataset } from '../../tivarq/generate.js'
import type { WrittenDatasetFile } from '../../tivarq/generate.js'
import { describeWriteError } from '../fs-errors.js'
import { EXIT, fail, UsageError } from '../exit-codes.js'

interface GenerateOptions {
  out?: string
  dataset?: string
}

/** The directory to write: `--out`, or its upstream spelling `--dataset`; one of them, or both naming the same place. */
function outputDirectory(options: GenerateOptions): string {
  const { out, dataset } = options
  if (out !== undefined && dataset !== undefined && out !== dataset) {
    throw new UsageError(`\`--out ${out}\` and \`--dataset ${dataset}\` name two directories; \`--dataset\` is another spelling of \`--out\`, so give one of them.`)
  }
  const dir = out ?? dataset
  if (dir === undefined) throw new UsageError('say where to write: `--out DIR` (or `--dataset DIR`, as upstream spells it).')
  return dir
}

/** One summary line per written file: `<name>  <bytes> bytes  sha256 <hex>`. */
function renderGenerateSummary(files: readonly WrittenDatasetFile[], dir: string): string {
  const width = Math.max(...files.map((file) => file.name.length))
  const lines = files.map((file) => `${file.name.padEnd(width)}  ${String(file.bytes).padStart(7)} bytes  sha256 ${file.sha256}`)
  lines.push(`Wrote TIVARQ v1 (${files.length} files) to ${dir} (dataset: TIVARQ, CC BY 4.0).`)
  return `${lines.join('\n')}\n`
}

/** Register `generate` on the CLI program. */
export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description('Write the TIVARQ v1 dataset (6 JSONL files + manifest.json), identical to the published files.')
    .option('--out <dir>', 'directory to write into (created if missing; existing dataset files are replaced) (required)')
    .option('--dataset <dir>', 'the same as --out, as the upstream harness spells it')
    .action(async (options: GenerateOptions) => {
      let dir: string
      try {
        dir = outputDirectory(options)
      } catch (error) {
        if (error instanceof UsageError) return fail('generate', `${error.message}\nSee \`timegrounded generate --help\`.`, EXIT.usage)
        throw error
      }
      const flag = options.out !== undefined ? '--out' : '--dataset'
      let files: WrittenDatasetFile[]
      try {
        files = await writeDataset(dir)
      } catch (error) {
        // File-system refusals (EACCES, ENOTDIR, EEXIST...) are the user's to fix; anything else is ours.
        if (!(error instanceof Error && 'syscall' in error)) throw error
        return fail('generate', `cannot write the dataset to \`${flag} ${dir}\`: ${describeWriteError(error, dir)}.`, EXIT.usage)
      }
      process.stdout.write(renderGenerateSummary(files, dir))
    })
}
