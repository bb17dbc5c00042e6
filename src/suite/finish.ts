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
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { writeFileAtomic, RunWriter } from '../harness/result-files.js'
import { renderMarkdown, renderRepeatsMarkdown } from '../report/markdown.js'
import { renderRepeats, renderReport } from '../report/terminal.js'
import { isTimeGroundedCaseRecord, type TimeGroundedCaseRecord } from '../timegrounded/cases.js'
import { renderTimeGroundedSummary } from '../timegrounded/render.js'
import { summarizeTimeGrounded, type TimeGroundedSummary } from '../timegrounded/summary.js'
import { aggregateRepetitions, type RunAggregate } from '../tivarq/aggregate.js'
import { isQuality, type MetricName, metricValuesOf, QUALITY_METRICS, type ScoredMetrics, scoredMetricsOf } from '../tivarq/metrics.js'
import { countRepetitions, identicalAnswers, pooledMetrics, probeRepetitions, type RepeatedCounts } from '../tivarq/repeats.js'
import { type PredictionRow, runFileNames } from '../tivarq/results.js'
import { computeMetrics, familyOf, scoreRows, type TivarqReport } from '../tivarq/score.js'
import { HARNESS_VERSION } from '../version.js'
import {
  type BaselineFile,
  type BaselineMatch,
  type BaselineSuite,
  baselineText,
  matchBaseline,
  parseBaseline,
  type SuiteIdentity,
  withSuites,
} from './baseline.js'
import { baseOfRow, entryProblem } from './baseline-evidence.js'
import { type RunnerCommands, VITEST_COMMANDS } from './commands.js'
import type { HtmlReportInput } from './html-report/input.js'
import { htmlPathOf, suitePageInput, timeGroundedPageInput, writeRunPage } from './html-report/test-run.js'
import type { ResolvedReporterOptions } from './options.js'
import { decideSuite, type UpdateRequest } from './outcome.js'
import { sampleOf } from './noise.js'
import { isProbeRecord, type ProbeRecord } from './records.js'

/** One test's record as the runner's reporter found it. */
export interface GatheredRecord {
  /** The test file it came from (named in conflict messages). */
  file: string
  /** The record the test left: a probe's or a time-grounded question's (anything else is ignored). */
  record: unknown
  /** Errors of the blocks around the test (their hooks: the store's start, its close), as messages. */
  blockErrors: readonly string[]
}

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
  /** What the messages tell the user to run. @default VITEST_COMMANDS */
  commands?: RunnerCommands
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

/** One suite's records gathered from the test files. */
interface SuiteRecords {
  identity: SuiteIdentity
  probeTotal: number
  /** Repetitions each probe ran (the same in every file of the suite). */
  repeats: number
  records: ProbeRecord[]
  /** Files declaring a different identity under the same name, and probes run twice (mistakes worth a clear line). */
  conflicts: string[]
  /** Which file ran each probe. */
  probeFiles: Map<string, string>
  /** Errors of the blocks around the probes, once each. */
  blockErrors: Set<string>
}

/** Score, gate, write and word one run. Throws only on a bug or an unwritable output directory. */
export function finishRun(input: FinishRunInput): FinishedRun {
  const commands = input.commands ?? VITEST_COMMANDS
  const cwd = input.cwd ?? process.cwd()
  const shown = (path: string): string => shownPath(path, cwd)
  const suites = gatherSuites(input.records)
  const questions = input.records.map((gathered) => gathered.record).filter(isTimeGroundedCaseRecord)
  const empty: FinishedRun = { failed: false, text: '', markdown: null, suites: [], timeGrounded: null, htmlReports: [], metrics: new Map() }
  if (suites.size === 0 && questions.length === 0) return empty
  if (input.shard !== null) return { ...empty, text: shardLines(input.shard, suites, questions, input.update, commands).join('\n') }
  if (input.cancelled === true) return cancelledRun(input, suites, shown)

  const baselinePath = input.options.baseline === false ? null : resolvePath(input.root, input.options.baseline)
  let baselineFile: BaselineFile | null = null
  let baselineProblem: string | null = null
  if (baselinePath !== null && existsSync(baselinePath)) {
    try {
      baselineFile = parseBaseline(readFileSync(baselinePath, 'utf8'), shown(baselinePath), commands)
    } catch (error) {
      baselineProblem = (error as Error).message
    }
  }
  const multiple = suites.size > 1
  const outputRoot = resolve(input.root, input.options.outputDir)
  const update = input.update.kind === 'update'
  const outcomes: SuiteOutcome[] = []
  const metrics = new Map<string, ScoredMetrics>()
  const newEntries: Record<string, BaselineSuite> = {}
  const timeGrounded = questions.length > 0 ? summarizeTimeGrounded(questions) : null
  const htmlReports: string[] = []
  const writePage = (path: string, page: HtmlReportInput): string => {
    const written = writeRunPage(path, page, shown)
    if (written.path !== null) htmlReports.push(written.path)
    return written.line
  }
  for (const [name, suite] of suites) {
    const lines: string[] = [...suite.conflicts]
    const ran = suite.records.filter((record) => record.rows).sort((a, b) => a.order - b.order)
    const [firstError] = suite.blockErrors
    if (ran.length === 0) {
      // The probes' own hook failed before any probe ran: that is the store failing to start.
      lines.push(
        `no probe ran (${suite.records.length} collected): ${firstError === undefined ? 'nothing to score' : `the store could not start: ${firstError}`}`,
      )
      outcomes.push({ name, data: suite.identity.data, report: null, aggregate: null, lines, failed: suite.conflicts.length > 0 })
      continue
    }
    // After probes ran, a block error is e.g. a store that failed to close: shown here too, not only above.
    for (const error of suite.blockErrors) lines.push(`suite error: ${error}`)
    const { seed, resamples } = input.options
    const repetitions = Array.from({ length: suite.repeats }, (_, repetition) => ran.map((record) => record.rows![repetition] as PredictionRow))
    // The run reached its end: probes that did not run were left out by the user's choice, not cut short.
    const reports = repetitions.map((rows) => scoreRows(rows, { seed, resamples, expectedProbes: suite.probeTotal, missingRows: 'selected' }))
    const report = reports[reports.length - 1]!
    const counted = countRepetitions(repetitions)
    const outputDir = multiple ? resolve(outputRoot, name) : outputRoot
    const aggregate = writeRunFiles(outputDir, repetitions, reports, { seed, resamples })
    const scored = suite.repeats === 1 ? scoredMetricsOf(report) : pooledScore(counted, repetitions)

    // The stored entry is rebuilt from its answers with this run's gold: whole when every probe ran.
    const bases = ran.map((record) => baseOfRow(record.rows![0]!))
    const check = (entry: BaselineSuite) => entryProblem(entry, bases, ran.length === suite.probeTotal)
    const match: BaselineMatch =
      baselineFile && baselinePath !== null ? matchBaseline(baselineFile, suite.identity, shown(baselinePath), commands, check) : { status: 'missing' }
    const verdict = decideSuite({
      identity: suite.identity,
      probeTotal: suite.probeTotal,
      records: ran,
      repetitions,
      scored,
      counted,
      probes: probeRepetitions(repetitions),
      sample: sampleOf(counted, QUALITY_METRICS, identicalAnswers(repetitions)),
      bootstrap: { seed, resamples },
      match,
      baselineProblem,
      baselinePath: baselinePath === null ? null : shown(baselinePath),
      reportPath:
        suite.repeats === 1 ? `${shown(outputDir)}/report.json` : `${shown(outputDir)}/ (report-1.json … report-${suite.repeats}.json, aggregate.json)`,
      update: input.update,
      previous: input.previous === null ? null : (input.previous.get(name) ?? null),
      options: input.options,
      commands,
      conflicts: suite.conflicts.length,
    })
    metrics.set(name, scored)
    if (verdict.entry !== null) newEntries[name] = verdict.entry
    // The verdict's closing line stays the suite's last: the page's line goes before it.
    const closing = verdict.lines.slice(-1)
    lines.push(...verdict.lines.slice(0, -1))
    if (input.options.html !== false) {
      const page = suitePageInput({
        identity: suite.identity,
        records: ran,
        rows: repetitions[repetitions.length - 1]!,
        report,
        baseline: match.status === 'ok' ? match.entry : null,
        timeGrounded: timeGrounded?.suites ?? [],
      })
      lines.push(writePage(htmlPathOf(input.options.html, input.root, multiple ? name : null), page))
    }
    lines.push(...closing)
    outcomes.push({
      name,
      data: suite.identity.data,
      report,
      aggregate,
      rows: repetitions[repetitions.length - 1]!,
      lines,
      failed: suite.conflicts.length > 0 || verdict.failed,
    })
  }
  if (update && baselinePath !== null && Object.keys(newEntries).length > 0) {
    writeFileAtomic(baselinePath, baselineText(withSuites(baselineFile, HARNESS_VERSION, newEntries)))
  }

  const timeGroundedLines: string[] = []
  if (timeGrounded !== null) {
    writeFileAtomic(join(outputRoot, 'time-grounded.json'), `${JSON.stringify(timeGrounded, null, 2)}\n`)
    // With a TIVARQ suite the summary is on its page; alone, it gets one of its own.
    if (suites.size === 0 && input.options.html !== false) {
      timeGroundedLines.push(`time-grounded: ${writePage(htmlPathOf(input.options.html, input.root, null), timeGroundedPageInput(timeGrounded.suites))}`)
    }
  }
  return {
    failed: outcomes.some((outcome) => outcome.failed),
    text: runText(outcomes, timeGrounded, timeGroundedLines, input.color),
    markdown: runMarkdown(outcomes, timeGrounded, multiple),
    suites: outcomes,
    timeGrounded,
    htmlReports,
    metrics,
  }
}

/**
 * A run the runner cancelled: each suite's result files hold what ran (scored as an incomplete run,
 * so no file of an earlier run is left to be read as this one's), and its one line says that nothing
 * was gated or recorded. The run fails: a cancelled run has not been judged.
 */
function cancelledRun(input: FinishRunInput, suites: ReadonlyMap<string, SuiteRecords>, shown: (path: string) => string): FinishedRun {
  const { seed, resamples } = input.options
  const outputRoot = resolve(input.root, input.options.outputDir)
  const outcomes: SuiteOutcome[] = []
  for (const [name, suite] of suites) {
    const ran = suite.records.filter((record) => record.rows).sort((a, b) => a.order - b.order)
    const repetitions = Array.from({ length: suite.repeats }, (_, repetition) => ran.map((record) => record.rows![repetition] as PredictionRow))
    const reports = repetitions.map((rows) => scoreRows(rows, { seed, resamples, expectedProbes: suite.probeTotal }))
    const outputDir = suites.size > 1 ? resolve(outputRoot, name) : outputRoot
    writeRunFiles(outputDir, repetitions, reports, { seed, resamples })
    const kept = input.update.kind === 'update' ? ', the baseline not written' : ''
    const line = `run cancelled before the end (\`--bail\`, or stopped): ${ran.length} of ${suite.probeTotal} probes ran; not gated${kept}; the incomplete results are in ${shown(outputDir)}/`
    outcomes.push({ name, data: suite.identity.data, report: null, aggregate: null, lines: [...suite.conflicts, line], failed: true })
  }
  const text = outcomes.flatMap((outcome) => outcome.lines.map((line) => `timegrounded [${outcome.name}] ${line}`))
  if (outcomes.length === 0) text.push('timegrounded: run cancelled before the end (`--bail`, or stopped): not gated')
  return { failed: true, text: text.join('\n'), markdown: null, suites: outcomes, timeGrounded: null, htmlReports: [], metrics: new Map() }
}

/**
 * The result files of one suite: `report.json` and `predictions.jsonl` for one
 * repetition; with repeats, as `run --repeat` writes them, `report-K.json`,
 * `predictions-K.jsonl` and `aggregate.json` (returned). The other layout's
 * files, left by an earlier run with other `repeats`, are removed so the
 * directory holds one run.
 */
function writeRunFiles(
  dir: string,
  repetitions: readonly (readonly PredictionRow[])[],
  reports: readonly TivarqReport[],
  bootstrap: { seed: number; resamples: number },
): RunAggregate | null {
  const files = new RunWriter(dir)
  const repeats = repetitions.length
  reports.forEach((report, repetition) => {
    files.writeReport(report, repetition, repeats)
    files.writePredictions(repetitions[repetition]!, repetition, repeats)
  })
  const aggregate = repeats > 1 ? aggregateRepetitions(repetitions, reports, bootstrap) : null
  if (aggregate !== null) files.writeAggregate(aggregate)
  const kept = new Set(repetitions.flatMap((_, repetition) => Object.values(runFileNames(repetition, repeats))))
  if (aggregate !== null) kept.add('aggregate.json')
  files.removeEarlierResults((name) => kept.has(name))
  return aggregate
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
  const byFamily: ScoredMetrics['byFamily'] = {}
  for (const [family, values] of Object.entries(pooled.byFamily)) {
    byFamily[family] = { ...values, ...latencies(all.filter((row) => familyOf(row) === family)) }
  }
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
      ...outcome.lines.map((line) => `- ${line}`),
    ]
      .filter(Boolean)
      .join('\n'),
  )
  if (timeGrounded !== null) blocks.push(`\`\`\`\n${renderTimeGroundedSummary(timeGrounded)}\n\`\`\``)
  return `\n## timegrounded\n\n${blocks.join('\n\n')}\n`
}

/** The probe records by suite, with the mistakes that make a suite's records untrustworthy named. */
function gatherSuites(gathered: readonly GatheredRecord[]): Map<string, SuiteRecords> {
  const suites = new Map<string, SuiteRecords>()
  for (const { file, record: candidate, blockErrors } of gathered) {
    const record = isProbeRecord(candidate) ? candidate : null
    if (record === null) continue
    let suite = suites.get(record.suite.name)
    if (!suite) {
      suite = {
        identity: record.suite,
        probeTotal: record.probeTotal,
        repeats: record.repeats,
        records: [],
        conflicts: [],
        probeFiles: new Map(),
        blockErrors: new Set(),
      }
      suites.set(record.suite.name, suite)
    }
    if (JSON.stringify(record.suite) !== JSON.stringify(suite.identity)) {
      const conflict = `${file} declares suite "${record.suite.name}" with other settings (${describeIdentity(record.suite)}) than another file (${describeIdentity(suite.identity)}); give each suite its own \`name\``
      if (!suite.conflicts.includes(conflict)) suite.conflicts.push(conflict)
      continue
    }
    if (record.repeats !== suite.repeats) {
      const conflict = `${file} runs suite "${record.suite.name}" with \`repeats: ${record.repeats}\` but another file with \`repeats: ${suite.repeats}\`; give every file of a suite the same \`repeats\``
      if (!suite.conflicts.includes(conflict)) suite.conflicts.push(conflict)
      continue
    }
    const seenIn = suite.probeFiles.get(record.probeId)
    if (seenIn !== undefined) {
      // One line per pair of files, not per probe (a whole split run twice would give hundreds).
      const pair = `suite "${record.suite.name}" runs the same probes in two files, ${seenIn} and ${file}`
      if (!suite.conflicts.some((line) => line.startsWith(pair)))
        suite.conflicts.push(`${pair} (e.g. ${record.probeId}); spread one suite over files with \`partition\`, or give each suite its own \`name\``)
      continue
    }
    suite.probeFiles.set(record.probeId, file)
    suite.records.push(record)
    for (const error of blockErrors) suite.blockErrors.add(error)
  }
  return suites
}

function describeIdentity(identity: SuiteIdentity): string {
  return `split ${identity.split}, track ${identity.track}, families ${identity.families?.join(',') ?? 'all'}, dataset ${identity.datasetHash.slice(0, 19)}…`
}
