/**
 * The end of a run, for any test runner: from the records its tests left
 * (plain JSON, gathered by the runner's reporter) to the scored report, the
 * result files, the gate and the words. The Vitest reporter gathers the
 * records from `task.meta`, calls `finishRun`, prints `text`, appends
 * `markdown` to the job summary and fails the run when `failed`; nothing here
 * imports a test framework or writes to a stream.
 *
 * Files written: `report.json`, `predictions.jsonl` and the HTML report per
 * suite (in `outputDir`, or `outputDir/<suite>` when there are several; with
 * repeats `report-K.json`, `predictions-K.jsonl` and `aggregate.json`, as
 * `run --repeat`, and the page shows the last repetition; the page where the
 * `html` option says), `time-grounded.json` when time-grounded questions ran,
 * and the baseline under `-u`. A shard writes none of them: it sees part of
 * the suite, and the merge writes them.
 */
import { existsSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { writeFileAtomic, RunWriter } from '../harness/result-files.js'
import { renderMarkdown, renderRepeatsMarkdown } from './markdown.js'
import { renderRepeats, renderReport } from './terminal.js'
import { isTimeGroundedCaseRecord, type TimeGroundedCaseRecord } from '../time-grounded/cases.js'
import { renderTimeGroundedSummary } from '../time-grounded/render.js'
import { summarizeTimeGrounded, type TimeGroundedSummary } from '../time-grounded/summary.js'
import type { RunAggregate } from '../tivarq/aggregate.js'
import { isQuality, type MetricName, metricValuesOf, QUALITY_METRICS, type ScoredMetrics, scoredMetricsOf } from '../tivarq/metrics.js'
import { countRepetitions, identicalAnswers, pooledMetrics, probeRepetitions, type RepeatedCounts } from '../tivarq/repeats.js'
import type { PredictionRow } from '../tivarq/results.js'
import { computeMetrics } from '../tivarq/metrics-tally.js'
import { familyOf } from '../tivarq/transitions.js'
import { scoreRepetitions } from './run-scoring.js'
import type { TivarqReport } from '../tivarq/report-shape.js'
import { HARNESS_VERSION } from '../version.js'
import { type BaselineFile, type BaselineMatch, type BaselineSuite, baselineText, matchBaseline, readBaselineFile, withSuites } from '../suite/baseline.js'
import { baseOfRow, entryProblem } from '../suite/baseline-evidence.js'
import type { RunnerCommands } from '../suite/commands.js'
import type { HtmlReportInput } from './html/model/input.js'
import { htmlPathOf, suitePageInput, timeGroundedRunPageInput } from './html/model/test-run.js'
import { writeReportPage } from './html/write-page.js'
import { writeScoredRun } from './scored-run.js'
import type { ResolvedReporterOptions } from '../suite/options.js'
import { decideSuite, type UpdateRequest } from '../suite/outcome.js'
import { sampleOf } from '../suite/noise.js'
import { gatherSuites, type GatheredRecord, type SuiteRecords } from '../suite/gather.js'
import type { ProbeRecord } from '../suite/records.js'
import { totalModelCalls } from '../suite/model-calls.js'
import { compareWithReference, referenceShardLine } from './compare/suite-reference.js'
import type { RunComparison } from './compare/compare-runs.js'
import { renderComparison } from './compare/render.js'

/** Everything the end of a run needs. */
export interface FinishRunInput {
  /** Every test's record, from every test file of the run (in watch mode too: not only the files that re-ran). */
  records: readonly GatheredRecord[]
  /** The project root: the baseline and `outputDir` are relative to it. */
  root: string
  options: ResolvedReporterOptions
  /** Whether this run rewrites the baseline. */
  update: UpdateRequest
  /** Watch mode: each suite's metrics after the previous run (empty on the first); null outside watch mode. */
  previous: ReadonlyMap<string, ScoredMetrics> | null
  /** The shard this run is, when it is one: it reports what it carries and never scores or gates. */
  shard: { index: number; count: number } | null
  /** Whether the text is coloured. */
  color: boolean
  /** What the messages tell the user to run: the calling shell's commands. */
  commands: RunnerCommands
  /** Paths in messages are shown relative to it when inside it. @default process.cwd() */
  cwd?: string
  /**
   * The runner cancelled the run (`--bail`, a stop): what ran is written, marked incomplete, and nothing
   * is gated or recorded; the run fails. @default false
   */
  cancelled?: boolean
}

/** What happened to one suite. */
export interface SuiteOutcome {
  name: string
  /** Which data the suite ran, in words (`TIVARQ v1`, or the variant). */
  data: string
  /** The scored report (with repeats, the last repetition's), or null when no probe ran. */
  report: TivarqReport | null
  /** With repeats, what the repetitions came to together (`aggregate.json`); else null. */
  aggregate: RunAggregate | null
  /** The rows of `report` (with repeats, the last repetition's), to name what the run did not measure. @default none */
  rows?: readonly PredictionRow[]
  /** The suite's lines, without the `timegrounded [suite] ` prefix the text gives them. */
  lines: string[]
  failed: boolean
  /** With a `reference` store: its comparison with the suite's store, which the text prints as `timegrounded compare` does. @default none */
  comparison?: RunComparison
}

/** The run's result: whether it fails, and what to print. */
export interface FinishedRun {
  /** True when any suite failed its gate (or nothing can be trusted): the runner fails the run. */
  failed: boolean
  /** The reports and lines to print; empty when the run held no timegrounded tests. */
  text: string
  /** The same as GitHub-flavoured Markdown, for a job summary; null for a shard or an empty run. */
  markdown: string | null
  suites: SuiteOutcome[]
  timeGrounded: TimeGroundedSummary | null
  /** The HTML reports written (absolute paths), one per suite, or one for time-grounded questions alone. */
  htmlReports: string[]
  /** Each suite's metrics after this run, for the next run's `previous` in watch mode. */
  metrics: Map<string, ScoredMetrics>
}

/** What every suite of one run shares as it is finished. */
interface RunContext {
  input: FinishRunInput
  commands: RunnerCommands
  shown: (path: string) => string
  outputRoot: string
  /** Several suites: each writes into `outputDir/<suite>`, and its page beside the `html` option's path. */
  multiple: boolean
  baseline: LoadedBaseline
  timeGrounded: TimeGroundedSummary | null
  /** The HTML reports written so far (absolute paths). */
  htmlReports: string[]
}

/** The baseline file of the run, read once: its path (null when baselines are off), its content, or why it cannot be used. */
interface LoadedBaseline {
  path: string | null
  file: BaselineFile | null
  problem: string | null
}

/** One suite finished: its outcome, its metrics for watch mode, and its new baseline entry under `-u`. */
interface FinishedSuite {
  outcome: SuiteOutcome
  scored: ScoredMetrics | null
  entry: BaselineSuite | null
}

/** Score, gate, write and word one run. Throws only on a bug or an unwritable output directory. */
export function finishRun(input: FinishRunInput): FinishedRun {
  const shown = (path: string): string => shownPath(path, input.cwd ?? process.cwd())
  const suites = gatherSuites(input.records)
  const questions = input.records.map((gathered) => gathered.record).filter(isTimeGroundedCaseRecord)
  const empty: FinishedRun = { failed: false, text: '', markdown: null, suites: [], timeGrounded: null, htmlReports: [], metrics: new Map() }
  if (suites.size === 0 && questions.length === 0) return empty
  if (input.shard !== null) return { ...empty, text: shardLines(input.shard, suites, questions, input.update, input.commands).join('\n') }
  if (input.cancelled === true) return cancelledRun(input, suites, shown)

  const context: RunContext = {
    input,
    commands: input.commands,
    shown,
    outputRoot: resolve(input.root, input.options.outputDir),
    multiple: suites.size > 1,
    baseline: loadBaseline(input, shown),
    timeGrounded: questions.length > 0 ? summarizeTimeGrounded(questions) : null,
    htmlReports: [],
  }
  const finished = [...suites].map(([name, suite]) => finishSuite(context, name, suite))
  recordBaseline(context, finished)
  const timeGroundedLines = finishTimeGrounded(context, suites.size === 0)
  const outcomes = finished.map((suite) => suite.outcome)
  const metrics = new Map<string, ScoredMetrics>()
  for (const suite of finished) if (suite.scored !== null) metrics.set(suite.outcome.name, suite.scored)
  return {
    failed: outcomes.some((outcome) => outcome.failed),
    text: runText(outcomes, context.timeGrounded, timeGroundedLines, input.color),
    markdown: runMarkdown(outcomes, context.timeGrounded, context.multiple),
    suites: outcomes,
    timeGrounded: context.timeGrounded,
    htmlReports: context.htmlReports,
    metrics,
  }
}

/** The baseline file, when there is one: a file that cannot be parsed is a problem every suite names, not a throw. */
function loadBaseline(input: FinishRunInput, shown: (path: string) => string): LoadedBaseline {
  const path = input.options.baseline === false ? null : resolvePath(input.root, input.options.baseline)
  if (path === null || !existsSync(path)) return { path, file: null, problem: null }
  try {
    return { path, file: readBaselineFile(path, shown(path), input.commands), problem: null }
  } catch (error) {
    return { path, file: null, problem: (error as Error).message }
  }
}

/** One suite: score its repetitions, write its files, gate it, write its page, word it. */
function finishSuite(context: RunContext, name: string, suite: SuiteRecords): FinishedSuite {
  const lines: string[] = [...suite.conflicts]
  const { ran, repetitions } = rowsThatRan(suite)
  const [firstError] = suite.blockErrors
  if (ran.length === 0) {
    // The probes' own hook failed before any probe ran: that is the store failing to start.
    lines.push(
      `no probe ran (${suite.records.length} collected): ${firstError === undefined ? 'nothing to score' : `the store could not start: ${firstError}`}`,
    )
    const outcome = { name, data: suite.identity.data, report: null, aggregate: null, lines, failed: suite.conflicts.length > 0 }
    return { outcome, scored: null, entry: null }
  }
  // After probes ran, a block error is e.g. a store that failed to close: shown here too, not only above.
  for (const error of suite.blockErrors) lines.push(`suite error: ${error}`)
  const { input } = context
  const outputDir = suiteOutputDir(context.outputRoot, name, context.multiple)
  // The run reached its end: probes that did not run were left out by the user's choice, not cut short.
  const { reports, aggregate } = scoreAndWriteSuite(suite, repetitions, outputDir, input.options, 'selected')
  const report = reports[reports.length - 1]!
  const rows = repetitions[repetitions.length - 1]!
  const counted = countRepetitions(repetitions)
  const scored = suite.repeats === 1 ? scoredMetricsOf(report) : pooledScore(counted, repetitions)
  const { match, verdict } = judgeSuite(context, suite, ran, { repetitions, counted, scored, outputDir })
  // The verdict's closing line stays the suite's last: the page's line goes before it.
  lines.push(...verdict.lines.slice(0, -1))
  const pagePath = input.options.html === false ? null : htmlPathOf(input.options.html, input.root, context.multiple ? name : null)
  if (pagePath !== null) {
    const baseline = match.status === 'ok' ? match.entry : null
    const page = suitePageInput({ identity: suite.identity, records: ran, rows, report, baseline, timeGrounded: context.timeGrounded?.suites ?? [] })
    lines.push(writePage(context, pagePath, page))
  }
  const { seed, resamples } = input.options
  const { identity, probeTotal } = suite
  const reference = compareWithReference({ identity, probeTotal, ran, repetitions, outputDir, pagePath, bootstrap: { seed, resamples }, shown: context.shown })
  if (reference?.htmlReport) context.htmlReports.push(reference.htmlReport)
  lines.push(...(reference?.lines ?? []), ...verdict.lines.slice(-1))
  const failed = suite.conflicts.length > 0 || verdict.failed || reference?.failed === true
  const comparison = reference === null || reference.comparison === null ? {} : { comparison: reference.comparison }
  return { outcome: { name, data: suite.identity.data, report, aggregate, rows, lines, failed, ...comparison }, scored, entry: verdict.entry }
}

/** The probes of a suite that ran, in their order, and their rows repetition by repetition. */
function rowsThatRan(suite: SuiteRecords): { ran: ProbeRecord[]; repetitions: PredictionRow[][] } {
  const ran = suite.records.filter((record) => record.rows).sort((a, b) => a.order - b.order)
  const repetitions = Array.from({ length: suite.repeats }, (_, repetition) => ran.map((record) => record.rows![repetition] as PredictionRow))
  return { ran, repetitions }
}

/** Where a suite's result files go: the output folder, or a folder of its own in it when the run has several suites. */
function suiteOutputDir(outputRoot: string, name: string, multiple: boolean): string {
  return multiple ? resolve(outputRoot, name) : outputRoot
}

/**
 * Score each repetition of a suite and write its result files: the one step of a finished run and of a
 * cancelled one. `unrun` says why probes did not run: left out by the user's choice (`selected`), or
 * the run was cut short (`interrupted`).
 */
function scoreAndWriteSuite(
  suite: SuiteRecords,
  repetitions: PredictionRow[][],
  outputDir: string,
  { seed, resamples }: { seed: number; resamples: number },
  unrun: 'selected' | 'interrupted',
): { reports: TivarqReport[]; aggregate: RunAggregate | null } {
  const calls = totalModelCalls(suite.modelCalls.values())
  // The calls are counted over the whole run, so every repetition's report carries the run's counts.
  const reports = scoreRepetitions(repetitions, { seed, resamples, expectedProbes: suite.probeTotal, missingRows: unrun }).map((report) =>
    calls === null ? report : { ...report, model_calls: calls },
  )
  const { aggregate } = writeScoredRun(new RunWriter(outputDir), { repetitions, reports, bootstrap: { seed, resamples } }, { predictions: 'write' })
  return { reports, aggregate }
}

/** The suite's baseline entry (rebuilt from its answers with this run's gold: whole when every probe ran) and the gate's verdict. */
function judgeSuite(
  context: RunContext,
  suite: SuiteRecords,
  ran: readonly ProbeRecord[],
  run: { repetitions: PredictionRow[][]; counted: RepeatedCounts; scored: ScoredMetrics; outputDir: string },
): { match: BaselineMatch; verdict: ReturnType<typeof decideSuite> } {
  const { input, shown, commands, baseline } = context
  const { seed, resamples } = input.options
  const bases = ran.map((record) => baseOfRow(record.rows![0]!))
  const check = (entry: BaselineSuite) => entryProblem(entry, bases, ran.length === suite.probeTotal)
  const match: BaselineMatch =
    baseline.file && baseline.path !== null ? matchBaseline(baseline.file, suite.identity, shown(baseline.path), commands, check) : { status: 'missing' }
  const dir = shown(run.outputDir)
  const verdict = decideSuite({
    identity: suite.identity,
    probeTotal: suite.probeTotal,
    records: ran,
    repetitions: run.repetitions,
    scored: run.scored,
    counted: run.counted,
    probes: probeRepetitions(run.repetitions),
    sample: sampleOf(run.counted, QUALITY_METRICS, identicalAnswers(run.repetitions)),
    bootstrap: { seed, resamples },
    match,
    baselineProblem: baseline.problem,
    baselinePath: baseline.path === null ? null : shown(baseline.path),
    reportPath: suite.repeats === 1 ? `${dir}/report.json` : `${dir}/ (report-1.json … report-${suite.repeats}.json, aggregate.json)`,
    update: input.update,
    previous: input.previous === null ? null : (input.previous.get(suite.identity.name) ?? null),
    options: input.options,
    commands,
    conflicts: suite.conflicts.length,
    isolation: [...suite.isolation.values()],
  })
  return { match, verdict }
}

/** Under `-u`, the baseline file with every suite's new entry (the others kept as they were). */
function recordBaseline(context: RunContext, finished: readonly FinishedSuite[]): void {
  const { path, file } = context.baseline
  if (context.input.update.kind !== 'update' || path === null) return
  // A suite's name is the user's: entries, not assignment, so that `__proto__` is a suite like any other.
  const entries: Record<string, BaselineSuite> = Object.fromEntries(
    finished.flatMap((suite) => (suite.entry === null ? [] : [[suite.outcome.name, suite.entry] as const])),
  )
  if (Object.keys(entries).length > 0) writeFileAtomic(path, baselineText(withSuites(file, HARNESS_VERSION, entries)))
}

/** `time-grounded.json`, and, when no TIVARQ suite ran (whose page shows the summary), a page of its own; the lines to print. */
function finishTimeGrounded(context: RunContext, alone: boolean): string[] {
  const { timeGrounded, input } = context
  if (timeGrounded === null) return []
  writeFileAtomic(join(context.outputRoot, 'time-grounded.json'), `${JSON.stringify(timeGrounded, null, 2)}\n`)
  if (!alone || input.options.html === false) return []
  return [`time-grounded: ${writePage(context, htmlPathOf(input.options.html, input.root, null), timeGroundedRunPageInput(timeGrounded.suites))}`]
}

/** Write a page (never throws: the run's results stand either way); the line that says where it went or why it did not. */
function writePage(context: RunContext, path: string, page: HtmlReportInput): string {
  const written = writeReportPage(path, page)
  if (written.path === null) return `HTML report not written to ${context.shown(path)}: ${written.problem}`
  context.htmlReports.push(written.path)
  return `HTML report in ${context.shown(written.path)}`
}

/**
 * A run the runner cancelled: each suite's result files hold what ran (scored as an incomplete run,
 * so no file of an earlier run is left to be read as this one's), and its one line says that nothing
 * was gated or recorded. The run fails: a cancelled run has not been judged.
 */
function cancelledRun(input: FinishRunInput, suites: ReadonlyMap<string, SuiteRecords>, shown: (path: string) => string): FinishedRun {
  const outputRoot = resolve(input.root, input.options.outputDir)
  const outcomes: SuiteOutcome[] = []
  for (const [name, suite] of suites) {
    const { ran, repetitions } = rowsThatRan(suite)
    const outputDir = suiteOutputDir(outputRoot, name, suites.size > 1)
    // Cut short: the reports of the probes that did not run say the run was interrupted.
    scoreAndWriteSuite(suite, repetitions, outputDir, input.options, 'interrupted')
    const kept = input.update.kind === 'update' ? ', the baseline not written' : ''
    const line = `run cancelled before the end (\`--bail\`, or stopped): ${ran.length} of ${suite.probeTotal} probes ran; not gated${kept}; the incomplete results are in ${shown(outputDir)}/`
    outcomes.push({ name, data: suite.identity.data, report: null, aggregate: null, lines: [...suite.conflicts, line], failed: true })
  }
  const text = outcomes.flatMap((outcome) => outcome.lines.map((line) => `timegrounded [${outcome.name}] ${line}`))
  if (outcomes.length === 0) text.push('timegrounded: run cancelled before the end (`--bail`, or stopped): not gated')
  return { failed: true, text: text.join('\n'), markdown: null, suites: outcomes, timeGrounded: null, htmlReports: [], metrics: new Map() }
}

/**
 * The metrics of a repeated run: quality metrics pooled over every
 * repetition's cases; latencies over every answer (for thresholds).
 */
function pooledScore(counted: RepeatedCounts, repetitions: readonly (readonly PredictionRow[])[]): ScoredMetrics {
  const pooled = pooledMetrics(counted)
  const latencies = (rows: readonly PredictionRow[]) =>
    Object.fromEntries(Object.entries(metricValuesOf(computeMetrics(rows))).filter(([metric]) => !isQuality(metric as MetricName)))
  const all = repetitions.flat()
  const byFamily: ScoredMetrics['byFamily'] = Object.fromEntries(
    Object.entries(pooled.byFamily).map(([family, values]) => [family, { ...values, ...latencies(all.filter((row) => familyOf(row) === family)) }]),
  )
  return { metrics: { ...pooled.metrics, ...latencies(all) }, byFamily }
}

function resolvePath(root: string, file: string): string {
  return isAbsolute(file) ? file : resolve(root, file)
}

/** A path as the user typed it: relative to the working directory when inside it. */
function shownPath(path: string, cwd: string): string {
  const fromHere = relative(cwd, path)
  return fromHere === '' ? '.' : fromHere.startsWith('..') ? path : fromHere
}

/** A shard sees part of each suite: it says what it carries, and that the merge scores and gates. */
function shardLines(
  shard: { index: number; count: number },
  suites: ReadonlyMap<string, SuiteRecords>,
  questions: readonly TimeGroundedCaseRecord[],
  update: UpdateRequest,
  commands: RunnerCommands,
): string[] {
  const lines: string[] = []
  if (questions.length > 0) {
    lines.push(
      `time-grounded: ${questions.length} question results carried in this shard's report; the probe-vs-control delta is computed after ${commands.merge}.`,
    )
  }
  for (const [name, suite] of suites) {
    const ran = suite.records.filter((record) => record.rows).length
    lines.push(
      `timegrounded [${name}] shard ${shard.index}/${shard.count}: ${ran} of ${suite.probeTotal} probe results carried in this shard's report; merge the shards with ${commands.merge} to score and gate (a shard never gates).`,
    )
    const reference = referenceShardLine(suite.records, commands.merge)
    if (reference !== null) lines.push(`timegrounded [${name}] shard ${shard.index}/${shard.count}: ${reference}`)
    if (update.kind === 'update') {
      lines.push(
        `timegrounded [${name}] shard ${shard.index}/${shard.count}: \`-u\` recorded this shard's wrong answers as known failures; nothing is written until ${commands.mergeAndRecord} writes the baseline from all shards.`,
      )
    }
  }
  return lines
}

/** The printed block: the time-grounded summary and its lines, then each suite's report and lines. */
function runText(outcomes: readonly SuiteOutcome[], timeGrounded: TimeGroundedSummary | null, timeGroundedLines: readonly string[], color: boolean): string {
  const out: string[] = []
  if (timeGrounded !== null) out.push(renderTimeGroundedSummary(timeGrounded, { color }), ...timeGroundedLines)
  for (const outcome of outcomes) {
    const data = outcome.data === 'TIVARQ v1' ? '' : ` · ${outcome.data}`
    const repetition = outcome.aggregate === null ? '' : ` · repetition ${outcome.aggregate.repeats} of ${outcome.aggregate.repeats}`
    if (outcome.report) out.push(renderReport(outcome.report, { color, title: `timegrounded — ${outcome.name}${data}${repetition}`, rows: outcome.rows }))
    if (outcome.aggregate) out.push(renderRepeats(outcome.aggregate, { color }))
    if (outcome.comparison !== undefined) out.push('', renderComparison(outcome.comparison, { color }), '')
    out.push(...outcome.lines.map((line) => `timegrounded [${outcome.name}] ${line}`))
  }
  return out.join('\n')
}

/** The job-summary block; with several suites, each is headed by its name (the report's own title does not carry it). */
function runMarkdown(outcomes: readonly SuiteOutcome[], timeGrounded: TimeGroundedSummary | null, multiple: boolean): string {
  const blocks = outcomes.map((outcome) =>
    [
      multiple ? `### Suite \`${outcome.name}\`\n` : '',
      outcome.report ? renderMarkdown(outcome.report, { rows: outcome.rows }) : '',
      outcome.aggregate ? renderRepeatsMarkdown(outcome.aggregate) : '',
      outcome.comparison === undefined ? '' : `\`\`\`\n${renderComparison(outcome.comparison)}\n\`\`\``,
      ...outcome.lines.map((line) => `- ${line}`),
    ]
      .filter(Boolean)
      .join('\n'),
  )
  if (timeGrounded !== null) blocks.push(`\`\`\`\n${renderTimeGroundedSummary(timeGrounded)}\n\`\`\``)
  return `\n## timegrounded\n\n${blocks.join('\n\n')}\n`
}
