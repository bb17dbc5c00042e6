/**
 * `timegrounded merge [-u] [--root DIR] <shard files…>`: one report and one
 * gate from the shard files of a `--shard=i/n` run (Jest has no report
 * merging of its own; Vitest set-ups can use it instead of blobs). It checks
 * that the set is whole and from one run (the rule `vitest --merge-reports`
 * applies too, in suite/shards.ts), then finishes the run as one unsharded
 * run would: the same report.json, predictions.jsonl, HTML report, gate lines
 * and, with `-u`, baseline. Exit 0 passed, 1 gate failed (or a shard failed
 * to load, or no shard holds a result), 2 an incomplete or mixed shard set (or
 * a usage error).
 */
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { JEST_COMMANDS } from '../../jest/commands.js'
import { mergeCommands } from '../../suite/commands.js'
import { VITEST_COMMANDS } from '../../vitest/commands.js'
import { finishRun } from '../../report/finish-run.js'
import { appendJobSummary } from '../../suite/job-summary.js'
import { ReporterOptionError, resolveReporterOptions } from '../../suite/options.js'
import { combineShards, readShardFile, ShardSetError } from '../../suite/shards.js'
import { EXIT, fail } from '../exit-codes.js'

interface MergeCommandOptions {
  update?: boolean
  root: string
  color?: boolean
}

/** Register `merge` on the CLI program. */
export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description('Score and gate a sharded run from its shard files (.timegrounded/shards/shard-<i>-of-<n>.json), as one run.')
    .argument('<files...>', 'every shard file of the run')
    .option('-u, --update', 'record the baseline from all shards (as `-u` does in an unsharded run)')
    .option('--root <dir>', 'the project root the baseline and output paths are relative to', '.')
    .option('--no-color', 'print without colours')
    .action((files: string[], options: MergeCommandOptions) => {
      let combined: ReturnType<typeof combineShards>
      let resolved: ReturnType<typeof resolveReporterOptions>
      try {
        combined = combineShards(files.map((path) => ({ path, shard: readShardFile(path) })))
        resolved = resolveReporterOptions(combined.options, 'the reporter options recorded in the shard files')
      } catch (error) {
        if (error instanceof ShardSetError || error instanceof ReporterOptionError) return fail('merge', error.message, EXIT.usage)
        throw error
      }
      if (combined.failures.length > 0) {
        // Never a gate verdict on part of the evidence: a shard that failed to load leaves the set without its probes.
        const lines = combined.failures.map((failure) => `timegrounded merge: ${failure}`)
        process.stdout.write(`${lines.join('\n')}\ntimegrounded merge: not gated (the run failed); fix what failed, run the shards again, then merge\n`)
        process.exitCode = EXIT.problems
        return
      }
      const finished = finishRun({
        records: combined.records,
        root: resolve(options.root),
        options: resolved,
        update: options.update === true ? { kind: 'update' } : { kind: 'none' },
        previous: null,
        shard: null,
        color: options.color !== false && (resolved.color ?? process.stdout.isTTY === true),
        commands: mergeCommands(combined.runner === 'jest' ? JEST_COMMANDS : VITEST_COMMANDS, resolved.outputDir),
      })
      process.stdout.write(`${finished.text}\n`)
      const summaryWarning = finished.markdown === null ? null : appendJobSummary(finished.markdown)
      if (summaryWarning !== null) process.stderr.write(`${summaryWarning}\n`)
      process.exitCode = finished.failed ? EXIT.problems : EXIT.clean
    })
}
