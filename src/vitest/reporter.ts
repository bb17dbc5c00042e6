/**
 * TimegroundedReporter: folds every probe result (read from `task.meta`, so it
 * works after `--merge-reports` too) into the same report as the CLI, writes
 * report.json and predictions.jsonl, prints the report and what changed in
 * the watch session, rewrites the baseline under `-u`, and gates the run.
 * It fails a run only through `process.exitCode = 1`, never by throwing.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { DATASET_SEED } from '../tivarq/schema.js'
import { scoreRows, type TivarqReport } from '../tivarq/score.js'
import type { PredictionRow } from '../tivarq/results.js'
import { RunWriter } from '../tivarq/output.js'
import { renderReport } from '../report/terminal.js'
import { renderMarkdown } from '../report/markdown.js'
import { HARNESS_VERSION } from '../version.js'
import { renderTimeGroundedSummary, summarizeTimeGrounded } from '../timegrounded/suite-support.js'
import { collectTimeGroundedMetas } from './timegrounded.js'
import {
  baselineEntry,
  evaluateGate,
  isKnownFailure,
  matchBaseline,
  metricChanges,
  parseBaseline,
  qualityOnly,
  renderMetricChange,
  renderViolationInSuite,
  scoredMetricsOf,
  withSuites,
  type BaselineFile,
  type BaselineSuite,
  type FamilyThresholds,
  type MetricValues,
  type ProbeOutcome,
  type RegressionPolicy,
  type SuiteIdentity,
  type Thresholds,
  type Violation,
} from './gate.js'
import { DEFAULT_BASELINE_FILE, probeMetaOf, type ProbeDecision, type ProbeMeta, type WorkerContext } from './meta.js'

/** Options of the reporter (and of the `timegrounded()` plugin, which passes them on). */
export interface TimegroundedReporterOptions {
  /** Bounds per metric: `{ staleValueLeakageRate: { max: 0.05 }, transitionSuccessRate: { min: 0.9 } }`. @default none */
  thresholds?: Thresholds
  /** Bounds per family and metric: `{ expiration: { expirationAccuracy: { min: 1 } } }`. @default none */
  familyThresholds?: FamilyThresholds
  /** Baseline file, relative to the Vitest root; `false` turns baselines off. @default 'timegrounded.baseline.json' */
  baseline?: string | false
  /** Which metrics the baseline gates, with what tolerance. @default every quality metric in the baseline, tolerance 0 */
  regression?: RegressionPolicy
  /** Where report.json and predictions.jsonl go, relative to the Vitest root. @default '.timegrounded' */
  outputDir?: string
  /** Seed of the bootstrap interval. @default 20261001 (the dataset seed) */
  seed?: number
  /** Bootstrap resamples. @default 1000 */
  resamples?: number
  /** Colour the printed report. @default whether stdout is a terminal */
  color?: boolean
}

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
  violations: Violation[]
  failed: boolean
}

export class TimegroundedReporter implements Reporter {
  private vitest: Vitest | undefined
  private readonly options: TimegroundedReporterOptions
  /** Metrics of the previous run of this watch session, per suite. */
  private readonly previous = new Map<string, MetricValues>()

  constructor(options: TimegroundedReporterOptions = {}) {
    this.options = options
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
    this.provideWorkerContext()
  }

  /** Re-provided before every run: the watch-mode `u` key turns update mode on for one run. */
  onTestRunStart(): void {
    this.provideWorkerContext()
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, _errors: ReadonlyArray<unknown>, reason: TestRunEndReason): void {
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
    if (this.options.baseline === false) return null
    const file = this.options.baseline ?? DEFAULT_BASELINE_FILE
    return isAbsolute(file) ? file : resolve(this.root, file)
  }

  private updateMode(): boolean {
    return this.vitest!.snapshot.options.updateSnapshot === 'all'
  }

  private provideWorkerContext(): void {
    const vitest = this.vitest
    if (!vitest) return
    const context: WorkerContext = { baselinePath: this.baselinePath(), update: this.updateMode() }
    for (const project of vitest.projects) project.provide('timegrounded', context)
  }

  private finishRun(): void {
    const vitest = this.vitest!
    const modules = vitest.state.getTestModules()
    const suites = gather(modules)
    const questions = collectTimeGroundedMetas(modules)
    if (suites.size === 0 && questions.length === 0) return
    const shard = vitest.config.shard
    const out: string[] = []
    if (shard && questions.length > 0) out.push(`time-grounded: ${questions.length} question results carried in this shard's report; the probe-vs-control delta is computed after \`vitest --merge-reports\`.`)
    if (shard) {
      for (const [name, suite] of suites) {
        const ran = suite.metas.filter((meta) => meta.row).length
        out.push(`timegrounded [${name}] shard ${shard.index}/${shard.count}: ${ran} of ${suite.probeTotal} probe results carried in this shard's report; merge the shards with \`vitest --merge-reports\` to score and gate (a shard never gates).`)
        // A shard sees part of the suite, so it cannot write the baseline; the merge can.
        if (this.updateMode()) out.push(`timegrounded [${name}] shard ${shard.index}/${shard.count}: \`-u\` recorded this shard's wrong answers as known failures; nothing is written until \`vitest --merge-reports -u\` writes the baseline from all shards.`)
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
    const update = this.updateMode()
    const multiple = suites.size > 1
    const outputRoot = resolve(this.root, this.options.outputDir ?? '.timegrounded')
    const color = this.options.color ?? process.stdout.isTTY === true
    const outcomes: SuiteOutcome[] = []
    const newEntries: Record<string, BaselineSuite> = {}
    for (const [name, suite] of suites) {
      const outputDir = multiple ? resolve(outputRoot, name) : outputRoot
      outcomes.push(this.finishSuite(name, suite, { baselineFile, baselineProblem, baselinePath, update, outputDir, newEntries }))
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
      const markdown = outcomes.map((outcome) => [multiple ? `### Suite \`${outcome.name}\`\n` : '', outcome.report ? renderMarkdown(outcome.report) : '', ...outcome.lines.map((line) => `- ${line}`)].filter(Boolean).join('\n'))
      if (questionSummary !== null) markdown.push(`\`\`\`\n${renderTimeGroundedSummary(questionSummary)}\n\`\`\``)
      appendFileSync(summaryFile, `\n## timegrounded\n\n${markdown.join('\n\n')}\n`)
    }
    if (outcomes.some((outcome) => outcome.failed)) process.exitCode = 1
  }

  private finishSuite(
    name: string,
    suite: SuiteResults,
    run: { baselineFile: BaselineFile | null; baselineProblem: string | null; baselinePath: string | null; update: boolean; outputDir: string; newEntries: Record<string, BaselineSuite> },
  ): SuiteOutcome {
    const lines: string[] = []
    let failed = false
    for (const conflict of suite.conflicts) {
      lines.push(conflict)
      failed = true
    }
    const metas = suite.metas.filter((meta) => meta.row).sort((a, b) => a.order - b.order)
    const [firstError] = suite.suiteErrors
    if (metas.length === 0) {
      // The probes' own hook failed before any probe ran: that is the store failing to start.
      lines.push(`no probe ran (${suite.metas.length} collected): ${firstError === undefined ? 'nothing to score' : `the store could not start: ${firstError}`}`)
      return { name, report: null, lines, violations: [], failed }
    }
    // After probes ran, a suite error is e.g. a store that failed to close: shown here too, not only above.
    for (const error of suite.suiteErrors) lines.push(`suite error: ${error}`)
    const rows: PredictionRow[] = metas.map((meta) => meta.row!)
    const report = scoreRows(rows, { seed: this.options.seed ?? DATASET_SEED, resamples: this.options.resamples ?? 1000, expectedProbes: suite.probeTotal })
    const scored = scoredMetricsOf(report)
    const covered = rows.length === suite.probeTotal

    const files = new RunWriter(run.outputDir)
    files.writeReport(report)
    files.writePredictions(rows)

    const decisions = countDecisions(metas)
    lines.push(
      `${rows.length} of ${suite.probeTotal} probes ran: ${decisions.pass} passed, ${decisions.fail} failed, ${decisions.known_failure} known failures, ${decisions.skip} unsupported (skipped), ${report.probe_counts.error} errors; report in ${shown(run.outputDir)}/report.json`,
    )
    const match = run.baselineFile && run.baselinePath !== null ? matchBaseline(run.baselineFile, suite.identity, shown(run.baselinePath)) : ({ status: 'missing' } as const)
    const recordedOnly = run.update ? [] : metas.filter((meta) => meta.decision === 'known_failure' && !isKnownFailure(match, meta.probeId)).map((meta) => meta.probeId)
    if (recordedOnly.length > 0) {
      lines.push(
        `${recordedOnly.length} probes passed only because their shard ran with \`-u\` and are not known failures in the baseline (${listProbes(recordedOnly)}); merge with \`vitest --merge-reports -u\` to record them, or run the shards without \`-u\``,
      )
      failed = true
    }
    const known = metas.filter((meta) => meta.decision === 'known_failure' && !recordedOnly.includes(meta.probeId)).map((meta) => meta.probeId)
    if (known.length > 0) {
      lines.push(`known failures (${run.update ? 'recorded in the new baseline' : 'failing in the baseline too, not failing CI'}): ${listProbes(known)}`)
    }
    // Fixed since the baseline: while the baseline still lists them as failing, a relapse would pass unnoticed.
    const fixed = run.update ? [] : metas.filter((meta) => meta.outcome === 'correct' && isKnownFailure(match, meta.probeId)).map((meta) => meta.probeId)
    if (fixed.length > 0) {
      lines.push(`${fixed.length} probes failing in the baseline now pass (${listProbes(fixed)}); record them with \`vitest run -u\` so that a relapse fails CI`)
    }

    if (this.vitest!.config.watch) {
      const previous = this.previous.get(name)
      if (previous) {
        const changes = metricChanges(previous, scored.metrics)
        if (changes.length === 0) lines.push('no metric changed since the previous run')
        for (const change of changes) lines.push(`changed since previous run: ${renderMetricChange(change)}`)
      }
      this.previous.set(name, scored.metrics)
    }

    const path = run.baselinePath
    const shownPath = path === null ? '' : shown(path)
    if (run.baselineProblem !== null) {
      lines.push(run.baselineProblem)
      if (!run.update) return { name, report, lines, violations: [], failed: true }
    }
    if (run.update && path !== null) {
      if (!covered) {
        lines.push(`baseline not written: only ${rows.length} of ${suite.probeTotal} probes ran (a filter, or files left out); run the whole suite with \`vitest -u\``)
        return { name, report, lines, violations: [], failed: true }
      }
      if (report.probe_counts.error > 0) {
        lines.push(`baseline not written: ${report.probe_counts.error} probes ended in an error (see the failing tests); a baseline must come from a run without errors`)
        return { name, report, lines, violations: [], failed: true }
      }
      const outcomes: Record<string, ProbeOutcome> = {}
      for (const meta of metas) outcomes[meta.probeId] = meta.outcome!
      run.newEntries[name] = baselineEntry(suite.identity, outcomes, { metrics: qualityOnly(scored.metrics), byFamily: mapValues(scored.byFamily, qualityOnly) })
      lines.push(`baseline written to ${shownPath}: ${rows.length} probes, ${decisions.known_failure} recorded as known failures`)
      return { name, report, lines, violations: [], failed }
    }

    if (match.status === 'refused') {
      lines.push(`baseline refused: ${match.reason}`)
      failed = true
    } else if (match.status === 'missing' && path !== null) {
      lines.push(`no baseline for this suite in ${shownPath}: every failing probe fails; record one with \`vitest -u\``)
    }
    if (!covered) {
      lines.push(`partial run (${rows.length} of ${suite.probeTotal} probes): metrics are not gated`)
      return { name, report, lines, violations: [], failed }
    }
    const violations = evaluateGate({
      suite: name,
      current: scored,
      baseline: match.status === 'ok' ? match.entry : null,
      thresholds: this.options.thresholds ?? {},
      familyThresholds: this.options.familyThresholds ?? {},
      regression: this.options.regression ?? {},
    })
    for (const violation of violations) lines.push(`gate violation: ${renderViolationInSuite(violation)}`) // the line is already prefixed with the suite
    if (violations.length === 0) {
      if (match.status === 'refused') lines.push('thresholds met; the baseline was not compared')
      else {
        // Say what was gated: "thresholds" with none configured would read as a check that never happened.
        const bounded = Object.keys(this.options.thresholds ?? {}).length + Object.keys(this.options.familyThresholds ?? {}).length > 0
        const against = match.status === 'ok' ? (bounded ? `thresholds and baseline ${shownPath}` : `baseline ${shownPath}; no thresholds set`) : bounded ? 'thresholds; no baseline' : 'no thresholds set; no baseline'
        lines.push(`gate passed (${against})`)
      }
    }
    return { name, report, lines, violations, failed: failed || violations.length > 0 }
  }
}

/** Known failures named one by one, up to this many. */
const KNOWN_FAILURES_LISTED = 20

/** Probe ids for one line: the first few, then how many more. */
function listProbes(ids: readonly string[]): string {
  return ids.length > KNOWN_FAILURES_LISTED ? `${ids.slice(0, KNOWN_FAILURES_LISTED).join(', ')}, … (${ids.length - KNOWN_FAILURES_LISTED} more in predictions.jsonl)` : ids.join(', ')
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
        suite = { identity: meta.suite, probeTotal: meta.probeTotal, metas: [], conflicts: [], partitions: new Set(), probeFiles: new Map(), suiteErrors: new Set() }
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

function countDecisions(metas: readonly ProbeMeta[]): Record<ProbeDecision, number> {
  const counts: Record<ProbeDecision, number> = { pass: 0, fail: 0, known_failure: 0, skip: 0 }
  for (const meta of metas) if (meta.decision) counts[meta.decision]++
  return counts
}

function mapValues<T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]))
}

function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, text)
  renameSync(temporary, path)
}
