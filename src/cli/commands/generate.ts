/**
 * `timegrounded generate --out DIR`: write the TIVARQ v1 dataset (six JSONL
 * files and manifest.json), byte for byte as published, and print one line per
 * file with its size and SHA-256. Exit 0 on success, 2 on usage or write errors.
 */
import type { Command } from 'commander'
import { writeDataset } from '../../tivarq/generate.js'
import type { WrittenDatasetFile } from '../../tivarq/generate.js'
import { describeWriteError } from '../fs-errors.js'
import { EXIT, fail } from '../exit-codes.js'

interface GenerateOptions {
  out: string
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
    .requiredOption('--out <dir>', 'directory to write into (created if missing; existing dataset files are replaced)')
    .action(async (options: GenerateOptions) => {
      let files: WrittenDatasetFile[]
      try {
        files = await writeDataset(options.out)
      } catch (error) {
        // File-system refusals (EACCES, ENOTDIR, EEXIST...) are the user's to fix; anything else is ours.
        if (!(error instanceof Error && 'syscall' in error)) throw error
        return fail('generate', `cannot write the dataset to \`--out ${options.out}\`: ${describeWriteError(error, options.out)}.`, EXIT.usage)
      }
      process.stdout.write(renderGenerateSummary(files, options.out))
    })
}
