/**
 * TimegroundedReporter: folds every probe result (read from `task.meta`, so it
 * works after `--merge-reports` too) into the same report as the CLI, writes
 * report.json and predictions.jsonl, prints the report and what changed in
 * the watch session, rewrites the baseline when asked, and gates the run
 * (the decision itself is `decideSuite`, in suite-outcome.ts).
 * It fails a run only through `process.exitCode = 1`, never by throwing.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { scoreRows, type TivarqReport } from '../tivarq/score.js'
import type { PredictionRow } from '../tivarq/results.js'
import { RunWriter } from '../harness/result-files.js'
import { renderReport } from '../report/terminal.js'
import { renderMarkdown } from '../report/markdown.js'
import { HARNESS_VERSION } from '../version.js'
import { renderTimeGroundedSummary, summarizeTimeGrounded } from '../timegrounded/suite-support.js'
import { collectTimeGroundedMetas } from './timegrounded.js'
import {
  matchBaseline,
  parseBaseline,
  scoredMetricsOf,
  withSuites,
  type BaselineFile,
  type BaselineSuite,
  type ScoredMetrics,
  type SuiteIdentity,
} from './gate.js'
import { probeMetaOf, type ProbeMeta, type WorkerContext } from './meta.js'
import { resolveReporterOptions, type ResolvedReporterOptions, type TimegroundedReporterOptions } from './options.js'
import { decideSuite, type UpdateRequest } from './suite-outcome.js'

export type { TimegroundedReporterOptions } from './options.js'

/** The `onWatcherRerun` trigger of the watch-mode `u` key (Vitest's `updateSnapshot()`). */
const UPDATE_KEY_TRIGGER = 'update snapshot'

/** One suite's results gathered from the test modules. */
interface SuiteResults {
  identity: SuiteIdentity
  probeTotal: number
  metas: ProbeMeta[]
  /** Files declaring a different identity under the same name (a mistake worth a clear line). */
  conflicts: string[]
  partitions: Set<string>
  /** Which file ran each probe (a probe run twice is a conflict). */
  probeFiles: Map<string, string>
  /** Errors of the describe blocks around the probes (their hooks: the store's start, its close), once each. */
  suiteErrors: Set<string>
}

/** What happened to one suite, for rendering and the exit code. */
interface SuiteOutcome {
  name: string
  report: TivarqReport | null
  lines: string[]
  failed: boolean
}

export class TimegroundedReporter implements Reporter {
  private vitest: Vitest | undefined
  private readonly options: ResolvedReporterOptions
  /** Metrics of the previous run of this watch session, per suite. */
  private readonly previous = new Map<string, ScoredMetrics>()
  /** Runs started in this session, and what triggered the current re-run (watch mode). */
  private runsStarted = 0
  private rerunTrigger: string | null = null
  /** Whether the current run rewrites the baseline, decided when it starts. */
  private update: UpdateRequest = { kind: 'none' }

  /** Checks every option at once (so a config with a misspelt metric fails as it loads); throws `OptionError`. */
  constructor(options: TimegroundedReporterOptions = {}) {
    this.options = resolveReporterOptions(options, 'TimegroundedReporter(options) in vitest.config')
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
    this.update = this.updateRequest()
    this.provideWorkerContext()
  }

  /** Called before `onTestRunStart` of a watch-mode re-run, with what triggered it (`u` is `update snapshot`). */
  onWatcherRerun(_files: string[], trigger?: string): void {
    this.rerunTrigger = trigger ?? null
  }

  /** Re-provided before every run: whether this run records is decided per run (the `u` key, or `-u` on the first run only). */
  onTestRunStart(): void {
    this.update = this.updateRequest()
    this.runsStarted++
    this.provideWorkerContext()
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, _errors: ReadonlyArray<unknown>, reason: TestRunEndReason): void {
    this.rerunTrigger = null
    if (!this.vitest || reason === 'interrupted') return
    try {
      this.finishRun()
    } catch (error) {
      this.vitest.logger.error(`timegrounded: the reporter failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
      process.exitCode = 1
    }
  }

  private get root(): string {
    return this.vitest!.config.root
  }

  private baselinePath(): string | null {
    const file = this.options.baseline
    if (file === false) return null
    return isAbsolute(file) ? file : resolve(this.root, file)
  }

  /**
   * Vitest's update mode covers `-u` and the watch-mode `u` key, and under
   * `vitest -u` it stays on for every re-run. The baseline is rewritten only on
   * request: a run (or merge) with `-u`, the first run of a watch session
   * started with `-u`, or the `u` key; never a re-run a saved file triggered.
   */
  private updateRequest(): UpdateRequest {
    const vitest = this.vitest!
    if (vitest.snapshot.options.updateSnapshot !== 'all') return { kind: 'none' }
    if (!vitest.config.watch || this.runsStarted === 0) return { kind: 'update' }
    // Started without -u, update mode can only come from the `u` key; started with -u, the re-run's trigger tells.
    if (vitest.config.snapshotOptions.updateSnapshot !== 'all' || this.rerunTrigger === UPDATE_KEY_TRIGGER) return { kind: 'update' }
    return { kind: 'ignored-in-watch' }
  }

  private provideWorkerContext(): void {
    const vitest = this.vitest
    if (!vitest) return
    const context: WorkerContext = { baselinePath: this.baselinePath(), update: this.update.kind === 'update' }
    for (const project of vitest.projects) project.provide('timegrounded', context)
  }

  private finishRun(): void {
    const vitest = this.vitest!
    const modules = vitest.state.getTestModules()
    const suites = gather(modules)
    const questions = collectTimeGroundedMetas(modules)
    if (suites.size === 0 && questions.length === 0) return
    const update = this.update.kind === 'update'
    const shard = vitest.config.shard
    const out: string[] = []
    if (shard && questions.length > 0)
      out.push(
        `time-grounded: ${questions.length} question results carried in this shard's report; the probe-vs-control delta is computed after \`vitest --merge-reports\`.`,
      )
    if (shard) {
      for (const [name, suite] of suites) {
        const ran = suite.metas.filter((meta) => meta.row).length
        out.push(
          `timegrounded [${name}] shard ${shard.index}/${shard.count}: ${ran} of ${suite.probeTotal} probe results carried in this shard's report; merge the shards with \`vitest --merge-reports\` to score and gate (a shard never gates).`,
        )
        // A shard sees part of the suite, so it cannot write the baseline; the merge can.
        if (update)
          out.push(
            `timegrounded [${name}] shard ${shard.index}/${shard.count}: \`-u\` recorded this shard's wrong answers as known failures; nothing is written until \`vitest --merge-reports -u\` writes the baseline from all shards.`,
          )
      }
      vitest.logger.log(`\n${out.join('\n')}\n`)
      return
    }

    const baselinePath = this.baselinePath()
    let baselineFile: BaselineFile | null = null
    let baselineProblem: string | null = null
    if (baselinePath !== null && existsSync(baselinePath)) {
      try {
        baselineFile = parseBaseline(readFileSync(baselinePath, 'utf8'), shown(baselinePath))
      } catch (error) {
        baselineProblem = (error as Error).message
      }
    }
    // A merge sees every shard's results, so `--merge-reports -u` writes the baseline like an unsharded `-u`.
    const multiple = suites.size > 1
    const outputRoot = resolve(this.root, this.options.outputDir)
    const color = this.options.color ?? process.stdout.isTTY === true
    const outcomes: SuiteOutcome[] = []
    const newEntries: Record<string, BaselineSuite> = {}
    for (const [name, suite] of suites) {
      const outputDir = multiple ? resolve(outputRoot, name) : outputRoot
      outcomes.push(this.finishSuite(name, suite, { baselineFile, baselineProblem, baselinePath, outputDir, newEntries }))
    }
    if (update && baselinePath !== null && Object.keys(newEntries).length > 0) {
      writeAtomic(baselinePath, `${JSON.stringify(withSuites(baselineFile, HARNESS_VERSION, newEntries), null, 2)}\n`)
    }

    const questionSummary = questions.length > 0 ? summarizeTimeGrounded(questions) : null
    if (questionSummary !== null) {
      out.push(renderTimeGroundedSummary(questionSummary, { color }))
      writeAtomic(join(outputRoot, 'time-grounded.json'), `${JSON.stringify(questionSummary, null, 2)}\n`)
    }
    for (const outcome of outcomes) {
      if (outcome.report) out.push(renderReport(outcome.report, { color, title: `timegrounded — ${outcome.name}` }))
      out.push(...outcome.lines.map((line) => `timegrounded [${outcome.name}] ${line}`))
    }
    vitest.logger.log(`\n${out.join('\n')}\n`)

    const summaryFile = process.env.GITHUB_STEP_SUMMARY
    if (summaryFile) {
      // With several suites, each block is headed by its suite's name (the report's own title does not carry it).
      const markdown = outcomes.map((outcome) =>
        [multiple ? `### Suite \`${outcome.name}\`\n` : '', outcome.report ? renderMarkdown(outcome.report) : '', ...outcome.lines.map((line) => `- ${line}`)]
          .filter(Boolean)
          .join('\n'),
      )
      if (questionSummary !== null) markdown.push(`\`\`\`\n${renderTimeGroundedSummary(questionSummary)}\n\`\`\``)
      appendFileSync(summaryFile, `\n## timegrounded\n\n${markdown.join('\n\n')}\n`)
    }
    if (outcomes.some((outcome) => outcome.failed)) process.exitCode = 1
  }

  private finishSuite(
    name: string,
    suite: SuiteResults,
    run: {
      baselineFile: BaselineFile | null
      baselineProblem: string | null
      baselinePath: string | null
      outputDir: string
      newEntries: Record<string, BaselineSuite>
    },
  ): SuiteOutcome {
    const lines: string[] = [...suite.conflicts]
    const metas = suite.metas.filter((meta) => meta.row).sort((a, b) => a.order - b.order)
    const [firstError] = suite.suiteErrors
    if (metas.length === 0) {
      // The probes' own hook failed before any probe ran: that is the store failing to start.
      lines.push(
        `no probe ran (${suite.metas.length} collected): ${firstError === undefined ? 'nothing to score' : `the store could not start: ${firstError}`}`,
      )
      return { name, report: null, lines, failed: suite.conflicts.length > 0 }
    }
    // After probes ran, a suite error is e.g. a store that failed to close: shown here too, not only above.
    for (const error of suite.suiteErrors) lines.push(`suite error: ${error}`)
    const rows: PredictionRow[] = metas.map((meta) => meta.row!)
    const report = scoreRows(rows, { seed: this.options.seed, resamples: this.options.resamples, expectedProbes: suite.probeTotal })
    const scored = scoredMetricsOf(report)

    const files = new RunWriter(run.outputDir)
    files.writeReport(report)
    files.writePredictions(rows)

    const watching = this.vitest!.config.watch
    const verdict = decideSuite({
      identity: suite.identity,
      probeTotal: suite.probeTotal,
      metas,
      rows,
      report,
      scored,
      match: run.baselineFile && run.baselinePath !== null ? matchBaseline(run.baselineFile, suite.identity, shown(run.baselinePath)) : { status: 'missing' },
      baselineProblem: run.baselineProblem,
      baselinePath: run.baselinePath === null ? null : shown(run.baselinePath),
      reportPath: `${shown(run.outputDir)}/report.json`,
      update: this.update,
      previous: watching ? (this.previous.get(name) ?? null) : null,
      options: this.options,
    })
    if (watching) this.previous.set(name, scored)
    if (verdict.entry !== null) run.newEntries[name] = verdict.entry
    lines.push(...verdict.lines)
    return { name, report, lines, failed: suite.conflicts.length > 0 || verdict.failed }
  }
}

/** A path as the user typed it: relative to the working directory when inside it. */
function shown(path: string): string {
  const fromHere = relative(process.cwd(), path)
  return fromHere === '' ? '.' : fromHere.startsWith('..') ? path : fromHere
}

function gather(modules: ReadonlyArray<TestModule>): Map<string, SuiteResults> {
  const suites = new Map<string, SuiteResults>()
  for (const module of modules) {
    for (const testCase of module.children.allTests()) {
      const meta = probeMetaOf(testCase.meta() as Record<string, unknown>)
      if (!meta) continue
      let suite = suites.get(meta.suite.name)
      if (!suite) {
        suite = {
          identity: meta.suite,
          probeTotal: meta.probeTotal,
          metas: [],
          conflicts: [],
          partitions: new Set(),
          probeFiles: new Map(),
          suiteErrors: new Set(),
        }
        suites.set(meta.suite.name, suite)
      }
      if (JSON.stringify(meta.suite) !== JSON.stringify(suite.identity)) {
        const conflict = `${module.moduleId} declares suite "${meta.suite.name}" with other settings (${describeIdentity(meta.suite)}) than another file (${describeIdentity(suite.identity)}); give each suite its own \`name\``
        if (!suite.conflicts.includes(conflict)) suite.conflicts.push(conflict)
        continue
      }
      suite.partitions.add(meta.partition ? `${meta.partition.index}/${meta.partition.count}` : 'whole')
      const seenIn = suite.probeFiles.get(meta.probeId)
      if (seenIn !== undefined) {
        const conflict = `suite "${meta.suite.name}" runs the same probes (e.g. ${meta.probeId}) in two files, ${seenIn} and ${module.moduleId}; spread one suite over files with \`partition\`, or give each suite its own \`name\``
        if (!suite.conflicts.includes(conflict)) suite.conflicts.push(conflict)
        continue
      }
      suite.probeFiles.set(meta.probeId, module.moduleId)
      suite.metas.push(meta)
      for (let parent = testCase.parent; parent.type === 'suite'; parent = parent.parent) {
        for (const error of parent.errors()) suite.suiteErrors.add(error.message)
      }
    }
  }
  return suites
}

function describeIdentity(identity: SuiteIdentity): string {
  return `split ${identity.split}, track ${identity.track}, families ${identity.families?.join(',') ?? 'all'}, dataset ${identity.datasetHash.slice(0, 19)}…`
}

function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, text)
  renameSync(temporary, path)
}
