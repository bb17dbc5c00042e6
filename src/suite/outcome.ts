/**
 * The end of a run for one TIVARQ suite, as data and words: from the probes'
 * records, the baseline and the options to the suite's lines, whether it
 * fails the run, and (under `-u`) the new baseline entry. Pure: the reporter
 * reads files and writes them; this decides.
 *
 * The rules: an incomplete run (a probe errored) never passes; a known
 * failure is a wrong answer, never an error; `-u` records the baseline and
 * still checks the thresholds, and says what it accepted; every violation
 * names its counts, its families and the next step.
 */
import { describeIsolationCheck, describeIsolationFailure, type IsolationFailure } from '../harness/isolation-check.js'
import { listProbes, renderErroredProbes } from './probe-lists.js'
import type { ScoredMetrics } from '../tivarq/metrics.js'
import { isFlaky, type ProbeRepetitions, type RepeatedCounts } from '../tivarq/repeats.js'
import type { PredictionRow } from '../tivarq/results.js'
import { isCorrect } from '../tivarq/row-verdicts.js'
import { type BaselineMatch, type BaselineSuite, baselineSample, isKnownFailure, qualityOnly, type SuiteIdentity, scoredMetricsOfBaseline } from './baseline.js'
import { entryOfRepetitions } from './baseline-evidence.js'
import type { RunnerCommands } from './commands.js'
import { evaluateGate, metricChanges, type Violation } from './gate.js'
import { describeRule, renderMetricChange, renderNotGated, renderViolationInSuite } from './gate-lines.js'
import type { RegressionRule, RepetitionSample } from './noise.js'
import { baselineRight } from './probe-evidence.js'
import type { ResolvedReporterOptions } from './options.js'
import { combinedCheck, type IsolationOutcome, type ProbeDecision, type ProbeRecord } from './records.js'

/** Whether this run rewrites the baseline, and why not when `-u` was given but does not apply. */
export type UpdateRequest =
  | { kind: 'none' }
  /** `vitest run -u`, the first run of `vitest -u`, the watch-mode `u` key, or `--merge-reports -u`. */
  | { kind: 'update' }
  /** A watch-mode re-run after `vitest -u`: only the first run (or the `u` key) records. */
  | { kind: 'ignored-in-watch' }

/** Everything the decision needs about one suite's run. */
export interface SuiteRun {
  identity: SuiteIdentity
  probeTotal: number
  /** The records of the probes that ran, in canonical order. */
  records: readonly ProbeRecord[]
  /** Every repetition's rows, repetition by repetition (one array for a run without repeats). */
  repetitions: readonly (readonly PredictionRow[])[]
  /** The metrics gated and recorded: pooled over the repetitions when there are several. */
  scored: ScoredMetrics
  /** The counts behind them, per episode and repetition, and what the repetitions came to per probe. */
  counted: RepeatedCounts
  probes: readonly ProbeRepetitions[]
  /** This run's counts per episode, for the noise-aware rule. */
  sample: RepetitionSample
  /** Seed and resamples of the bootstrap. */
  bootstrap: { seed: number; resamples: number }
  /** The baseline entry of the suite (`missing` when baselines are off or the file has none). */
  match: BaselineMatch
  /** Why the baseline file could not be read, if it could not. */
  baselineProblem: string | null
  /** The baseline file as the user sees its path, or null when baselines are off. */
  baselinePath: string | null
  /** Where report.json went, as the user sees the path. */
  reportPath: string
  update: UpdateRequest
  /** Metrics of the previous run of this watch session, if any. */
  previous: ScoredMetrics | null
  options: Pick<ResolvedReporterOptions, 'thresholds' | 'familyThresholds' | 'regression'>
  /** What the messages tell the user to run. */
  commands: RunnerCommands
  /** Conflicts between the suite's test files (named on lines of their own): the suite's records cannot be trusted, so it fails. */
  conflicts: number
  /** What the isolation check came to in each file that ran the suite (see `IsolationOutcome`). @default [] */
  isolation?: readonly IsolationOutcome[]
}

/** What the reporter does with a suite: its lines, whether the run fails, the baseline entry to write. */
export interface SuiteVerdict {
  lines: string[]
  violations: Violation[]
  failed: boolean
  /** The new baseline entry (under `-u`, when it may be written), else null. */
  entry: BaselineSuite | null
}

function countDecisions(records: readonly ProbeRecord[]): Record<ProbeDecision, number> {
  const counts: Record<ProbeDecision, number> = { pass: 0, fail: 0, known_failure: 0, flaky: 0, suspect: 0, skip: 0 }
  for (const record of records) if (record.decision) counts[record.decision]++
  return counts
}

function wrongCount(record: ProbeRecord): number {
  return (record.rows ?? []).filter((row) => row.status === 'answered' && !isCorrect(row)).length
}

function idsWhere(records: readonly ProbeRecord[], keep: (meta: ProbeRecord) => boolean): string[] {
  return records.filter(keep).map((record) => record.probeId)
}

/** Lines and whether they fail the suite, for each part of a decision. */
interface Part {
  lines: string[]
  failed: boolean
}

/** Decide one suite's run. */
export function decideSuite(run: SuiteRun): SuiteVerdict {
  const { records } = run
  const errored = records.filter((record) => record.outcome === 'error').length
  const decisions = countDecisions(records)
  const carried = (run.isolation ?? []).flatMap((outcome) => (outcome.checked ? outcome.failures : []))
  const parts = [
    { lines: [countLine(run, decisions, errored)], failed: false },
    healthLines(run, carried),
    repetitionLines(run, decisions),
    knownFailureLines(run),
    { lines: previousLines(run), failed: false },
  ]
  const recorded = baselineLines(run)
  parts.push(recorded)
  const lines = parts.flatMap((part) => part.lines)
  const failed = parts.some((part) => part.failed)
  if (records.length !== run.probeTotal) {
    lines.push(
      `partial run (${records.length} of ${run.probeTotal} probes): metrics are not gated; a chosen subset (\`-t\`, files left out) is never a gate pass: run the whole suite to gate it`,
    )
    return { lines, violations: [], failed, entry: recorded.entry }
  }
  const gated = gateLines(run, { failed, errored, failedTests: decisions.fail - errored, carried: carried.length })
  return { lines: [...lines, ...gated.lines], violations: gated.violations, failed: gated.failed, entry: recorded.entry }
}

/** The suite's first line: how many probes ran and how each ended, and where the report went. */
function countLine(run: SuiteRun, decisions: Record<ProbeDecision, number>, errored: number): string {
  const repeats = run.repetitions.length
  const each = repeats > 1 ? ` in each of ${repeats} repetitions` : ''
  const flakyCount = repeats > 1 ? `${decisions.flaky} flaky, ${decisions.suspect > 0 ? `${decisions.suspect} suspect, ` : ''}` : ''
  return `${run.records.length} of ${run.probeTotal} probes ran${each}: ${decisions.pass} passed, ${decisions.fail} failed, ${decisions.known_failure} known failures, ${flakyCount}${decisions.skip} unsupported (${run.commands.unsupportedTests}), ${errored} errors; ${repeats > 1 ? 'reports' : 'report'} in ${run.reportPath}`
}

/** Errored probes and state carried between episodes: either fails the suite. */
function healthLines(run: SuiteRun, carried: readonly IsolationFailure[]): Part {
  const lines: string[] = []
  const incomplete = renderErroredProbes(run.repetitions.flat(), run.repetitions.length)
  if (incomplete !== null) lines.push(`${incomplete} (an error is never a known failure)`)
  for (const failure of carried.slice(0, 10)) lines.push(`ISOLATION: ${describeIsolationFailure(failure)}`)
  if (carried.length > 10) lines.push(`ISOLATION: and ${carried.length - 10} more episodes that started with an earlier episode's state`)
  const checkLine = isolationCheckLine(run.isolation ?? [])
  if (checkLine !== null) lines.push(checkLine)
  return { lines, failed: incomplete !== null || carried.length > 0 }
}

/** That the isolation check was off, or what the store reported spending on it; null when neither is worth a line. */
function isolationCheckLine(outcomes: readonly IsolationOutcome[]): string | null {
  if (outcomes.length === 0) return null
  const check = combinedCheck(outcomes)
  if (check === null) return describeIsolationCheck(null, '`isolationCheck: false`')
  const spent = check.usage.promptTokens !== undefined || check.usage.completionTokens !== undefined || check.costUsd !== undefined
  return spent ? describeIsolationCheck(check, '') : null
}

/** With repeats: the flaky probes and the suspect ones (neither fails CI on its own). */
function repetitionLines(run: SuiteRun, decisions: Record<ProbeDecision, number>): Part {
  const lines: string[] = []
  const repeats = run.repetitions.length
  const flaky = run.probes.filter(isFlaky)
  if (flaky.length > 0) {
    const judged =
      decisions.flaky > 0
        ? "not failing CI on their own: the gate judges the metrics against the measured noise; set `flaky: 'fail'` to fail them"
        : "judged as wrong answers (`flaky: 'fail'`)"
    lines.push(
      `flaky probes (right in some repetitions, wrong in others; ${judged}): ${listProbes(
        flaky.map((probe) => `${probe.probeId} ${probe.correct}/${repeats}`),
        'aggregate.json',
      )}`,
    )
  }
  const suspects = run.records.filter((record) => record.decision === 'suspect')
  if (suspects.length > 0) {
    lines.push(
      `suspect probes (wrong in every repetition, but not beyond the baseline's noise: an exact binomial test at 1% for the run, Bonferroni over ${run.probeTotal} probes; not failing CI on their own, the gate judges the metrics): ${listProbes(
        suspects.map(
          (record) => `${record.probeId} ${repeats - wrongCount(record)}/${repeats} (baseline ${baselineRight(run.match, record.probeId) ?? 'not recorded'})`,
        ),
        'aggregate.json',
      )}`,
    )
  }
  return { lines, failed: false }
}

/** Known failures: recorded only by a shard's `-u` (which fails), known, and fixed since the baseline. */
function knownFailureLines(run: SuiteRun): Part {
  const { records, match } = run
  const lines: string[] = []
  const updating = run.update.kind === 'update'
  const recordedOnly = updating ? [] : idsWhere(records, (record) => record.decision === 'known_failure' && !isKnownFailure(match, record.probeId))
  if (recordedOnly.length > 0) {
    lines.push(
      `${recordedOnly.length} probes passed only because their shard ran with \`-u\` and are not known failures in the baseline (${listProbes(recordedOnly)}); merge with ${run.commands.mergeAndRecord} to record them, or run the shards without \`-u\``,
    )
  }
  const known = idsWhere(records, (record) => record.decision === 'known_failure' && !recordedOnly.includes(record.probeId))
  if (known.length > 0)
    lines.push(`known failures (${updating ? 'recorded in the new baseline' : 'failing in the baseline too, not failing CI'}): ${listProbes(known)}`)
  // Fixed since the baseline: while the baseline still lists them as failing, a relapse would pass unnoticed.
  // A probe flaky in the baseline that is right in every repetition now is the noise again, not a fix.
  const flakyBefore = match.status === 'ok' ? (match.entry.repeats?.flaky ?? {}) : {}
  const fixed = updating
    ? []
    : idsWhere(records, (record) => record.outcome === 'correct' && isKnownFailure(match, record.probeId) && !(record.probeId in flakyBefore))
  if (fixed.length > 0)
    lines.push(
      `${fixed.length} probes failing in the baseline now pass (${listProbes(fixed)}); record them with ${run.commands.record} so that a relapse fails CI`,
    )
  return { lines, failed: recordedOnly.length > 0 }
}

/** Watch mode: what moved since the previous run. */
function previousLines(run: SuiteRun): string[] {
  if (run.previous === null) return []
  const changes = metricChanges(run.previous, run.scored)
  return changes.length === 0
    ? ['no metric changed since the previous run']
    : changes.map((change) => `changed since previous run: ${renderMetricChange(change)}`)
}

/** The baseline: its file's problem, the entry recorded under `-u`, a refusal, or its absence; and `-u` ignored on a watch re-run. */
function baselineLines(run: SuiteRun): Part & { entry: BaselineSuite | null } {
  const { match, baselinePath } = run
  const updating = run.update.kind === 'update'
  const lines: string[] = []
  let failed = false
  let entry: BaselineSuite | null = null
  if (run.baselineProblem !== null) {
    lines.push(run.baselineProblem)
    if (!updating) failed = true
  }
  if (updating && baselinePath !== null) {
    const written = recordBaseline(run, lines)
    entry = written.entry
    failed ||= written.failed
  } else if (match.status === 'refused') {
    lines.push(`baseline refused: ${match.reason}`)
    failed = true
  } else if (match.status === 'missing' && baselinePath !== null && run.baselineProblem === null) {
    lines.push(`no baseline for this suite in ${baselinePath}: every failing probe fails; record one with ${run.commands.record}`)
  }
  if (run.update.kind === 'ignored-in-watch') {
    lines.push(
      `\`-u\` rewrote the baseline on the first run only: this re-run (a file changed) was compared with it; press ${run.commands.watchRecordKey} to record again`,
    )
  }
  return { lines, failed, entry }
}

/** The gate over a whole run: its violations and notes, then the closing line that states the suite's verdict. */
function gateLines(
  run: SuiteRun,
  so: { failed: boolean; errored: number; failedTests: number; carried: number },
): { lines: string[]; violations: Violation[]; failed: boolean } {
  const { match } = run
  const lines: string[] = []
  // Under -u the run becomes the baseline, so only the thresholds can still be broken (and still fail the run).
  const compared = run.update.kind !== 'update' && run.baselineProblem === null && match.status === 'ok' ? match.entry : null
  const gate = evaluateGate({
    suite: run.identity.name,
    current: run.scored,
    baseline: compared,
    thresholds: run.options.thresholds,
    familyThresholds: run.options.familyThresholds,
    regression: run.options.regression,
    repetitions: { run: run.sample, baseline: compared === null ? null : baselineSample(compared), ...run.bootstrap },
  })
  const { violations } = gate
  lines.push(...leakageLines(run))
  for (const violation of violations) lines.push(`gate violation: ${renderViolationInSuite(violation, run.commands)}`)
  if (gate.notGated.length > 0) lines.push(renderNotGated(gate.notGated))
  if (gate.rule?.kind === 'exact' && gate.rule.why === 'baseline-one-repetition') {
    lines.push(
      `this run's ${run.repetitions.length} repetitions answered differently, but the baseline holds one repetition, so any change counted; record the baseline with \`repeats\` (${run.commands.record}) to gate by the measured noise`,
    )
  }
  // The closing line states the suite's verdict: never "passed" while its own probe tests fail the run.
  const failed = so.failed || violations.length > 0 || so.failedTests > 0 || run.conflicts > 0
  lines.push(
    gateLine(run, {
      failed,
      violations: violations.length,
      errored: so.errored,
      failedTests: so.failedTests,
      conflicts: run.conflicts,
      carried: so.carried,
      compared: compared !== null,
      rule: gate.rule,
    }),
  )
  return { lines, violations, failed }
}

/** Higher-is-better rates a store that answers `unknown` to everything drives to 0 (a floor on one makes abstaining fail). */
const RATES_ABSTAINING_LOWERS = [
  'transitionSuccessRate',
  'currentStateAccuracy',
  'unaffectedFactRetention',
  'historicalAccuracy',
  'expirationAccuracy',
] as const

/**
 * The leakage figure beside how many answers carried a value (abstaining leaks nothing), and a warning
 * when the thresholds bound leakage but no rate that abstaining lowers.
 */
function leakageLines(run: SuiteRun): string[] {
  const rows = run.repetitions.flat()
  const answered = rows.filter((row) => row.status === 'answered')
  const valued = answered.filter((row) => row.prediction.state === 'known').length
  const leakage = run.scored.metrics.staleValueLeakageRate
  if (leakage === undefined) return []
  const leaked = leakage.value === null ? 0 : Math.round(leakage.value * leakage.cases)
  const lines = [`stale-value leakage ${leaked} of ${leakage.cases}, with ${valued} of ${answered.length} answers carrying a value (abstaining leaks nothing)`]
  const bounds = [run.options.thresholds, ...Object.values(run.options.familyThresholds)]
  const leakageBounded = bounds.some((bound) => bound?.staleValueLeakageRate !== undefined)
  const floored = bounds.some((bound) => RATES_ABSTAINING_LOWERS.some((metric) => bound?.[metric]?.min !== undefined))
  if (leakageBounded && !floored)
    lines.push(
      'warning: the thresholds bound leakage but no rate that abstaining lowers, so a store answering `unknown` to everything passes them; add a floor such as `transitionSuccessRate: { min: 0.9 }`',
    )
  return lines
}

/** Under `-u`: the new entry, or why none is written; and what the rewrite accepted. */
function recordBaseline(run: SuiteRun, lines: string[]): { entry: BaselineSuite | null; failed: boolean } {
  if (run.records.length !== run.probeTotal) {
    lines.push(
      `baseline not written: only ${run.records.length} of ${run.probeTotal} probes ran (a filter, or files left out); run the whole suite with ${run.commands.record}`,
    )
    return { entry: null, failed: true }
  }
  const errored = run.records.filter((record) => record.outcome === 'error').length
  if (errored > 0) {
    lines.push(`baseline not written: ${errored} probes errored; a baseline records answers, never errors (fix the store, then record again)`)
    return { entry: null, failed: true }
  }
  // Built from the answers by the same code that checks a stored entry on load, so what is written always passes that check.
  const entry = entryOfRepetitions(run.identity, run.repetitions)
  const repeats = run.repetitions.length
  const wrong = idsWhere(run.records, (record) => record.outcome === 'wrong')
  const kept =
    repeats > 1 ? `, over ${repeats} repetitions (${run.sample.identical ? 'every one answered alike' : 'their counts kept, for the noise-aware rule'})` : ''
  lines.push(`baseline written to ${run.baselinePath}: ${run.records.length} probes, ${wrong.length} recorded as known failures${kept}`)
  // Never silently: what this rewrite let through that the previous baseline did not.
  const previous = run.match.status === 'ok' ? run.match.entry : null
  if (previous === null) {
    lines.push(
      `accepted: no earlier baseline of this suite to compare with; ${wrong.length} probes recorded as failing${wrong.length > 0 ? ` (${listProbes(wrong)})` : ''}`,
    )
    return { entry, failed: false }
  }
  const newlyFailing = wrong.filter((id) => previous.probes[id] !== 'wrong')
  lines.push(
    newlyFailing.length > 0
      ? `accepted: ${newlyFailing.length} probes newly recorded as failing (${listProbes(newlyFailing)})`
      : 'accepted: no probe newly recorded as failing',
  )
  const worse = metricChanges(scoredMetricsOfBaseline(previous), { metrics: qualityOnly(run.scored.metrics), byFamily: run.scored.byFamily }).filter(
    (change) => change.verdict === 'worse',
  )
  for (const change of worse) lines.push(`accepted: ${renderMetricChange(change)}`)
  if (worse.length === 0) lines.push('accepted: no metric got worse than in the earlier baseline')
  return { entry, failed: false }
}

/** The closing line: what was gated, and passed or failed (never "passed" for an incomplete run). */
function gateLine(
  run: SuiteRun,
  result: {
    failed: boolean
    violations: number
    errored: number
    failedTests: number
    conflicts: number
    carried: number
    compared: boolean
    rule: RegressionRule | null
  },
): string {
  const bounded = Object.keys(run.options.thresholds).length + Object.keys(run.options.familyThresholds).length > 0
  // The rule is named once repetitions are in play; a plain run against a plain baseline keeps the short line.
  const repeated = result.rule !== null && !(result.rule.kind === 'exact' && result.rule.why === 'one-repetition')
  const against = [
    bounded ? `thresholds${run.repetitions.length > 1 ? ` (on values pooled over ${run.repetitions.length} repetitions)` : ''}` : 'no thresholds set',
    result.compared ? `baseline ${run.baselinePath}` : run.update.kind === 'update' ? 'the baseline just written' : 'no baseline',
    ...(repeated && result.rule !== null ? [describeRule(result.rule)] : []),
  ].join('; ')
  if (!result.failed) return `gate passed (${against})`
  const reasons = [
    result.violations > 0 ? `${result.violations} ${result.violations === 1 ? 'violation' : 'violations'}` : null,
    result.errored > 0 ? `${result.errored} probes errored (an incomplete run never passes)` : null,
    result.failedTests > 0 ? `${result.failedTests} probe ${result.failedTests === 1 ? 'test' : 'tests'} failed` : null,
    result.conflicts > 0 ? `${result.conflicts} ${result.conflicts === 1 ? 'conflict' : 'conflicts'} between test files (above)` : null,
    result.carried > 0
      ? `state carried over between episodes in ${result.carried} ${result.carried === 1 ? 'case' : 'cases'} (the store is not isolated)`
      : null,
  ].filter(Boolean)
  return `gate failed (${against})${reasons.length > 0 ? `: ${reasons.join(', ')}` : ''}`
}
