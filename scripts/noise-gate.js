// How often the gate fails CI by chance on a store whose answers vary, and whether it still catches a real
// bug (the figures in docs/gating.md, "Stores that answer differently each run" and "A probe wrong in every
// repetition"). Run after `npm run build`:
//
//   node scripts/noise-gate.js [--runs 20] [--repeats 3,5] [--wrong-share 0.05,0.1] [--split dev]
//
// The stochastic store: the built-in `versioned` store (correct), except that each answer is replaced by a
// wrong one ("misheard") with probability --wrong-share, drawn from a seedrandom stream named after the
// run's seed and the store instance (a fresh store per episode and repetition, as the suite makes them).
// The arrival-order bug: the same noisy store, but a fact that arrives after a newer one for the same
// slot is filed as if it began when the newest one did, so a late back-dated message overrides the newer
// fact (late corrections win).
//
// For every wrong share and number of repetitions:
// 1. The baseline: that many repetitions with seed 1, recorded as `timegroundedSuite(…, { repeats })` does
//    with `-u` (each probe's outcome, the flaky probes, the counts per episode and repetition).
// 2. --runs CI runs with seeds 2, 3, …, each judged by the whole verdict a suite gives: every probe's test
//    by the per-probe policy (`judgeProbe`, the function the tests call, with its binomial rule for a probe
//    wrong in every repetition), then the metric gate (the noise-aware rule: a two-sample test whose
//    variance counts both sides' noise, measured between repetitions, one-sided 99% for the run). A run fails when a probe's test fails or the gate finds a violation.
//    Beside it, for comparison: the per-probe rule before the binomial test (a probe wrong in every
//    repetition fails), the exact metric rule on one run against a one-run baseline, and on pooled values.
// 3. The same --runs runs of the store with the arrival-order bug, judged by the whole verdict.
import seedrandom from 'seedrandom'
import { referenceStore } from '../dist/adapters/reference/index.js'
import { openPool } from '../dist/harness/pool.js'
import { runSplit } from '../dist/harness/runner.js'
import { baselineSample } from '../dist/suite/baseline.js'
import { entryOfRepetitions } from '../dist/suite/baseline-evidence.js'
import { evaluateGate } from '../dist/suite/gate.js'
import { describeRule } from '../dist/suite/gate-lines.js'
import { NOISE_CONFIDENCE, sampleOf } from '../dist/suite/noise.js'
import { judgeProbe } from '../dist/suite/records.js'
import { loadSplit } from '../dist/tivarq/dataset.js'
import { QUALITY_METRICS } from '../dist/tivarq/metrics.js'
import { countRepetitions, identicalAnswers, pooledMetrics } from '../dist/tivarq/repeats.js'

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : args[at + 1]
}
const RUNS = Number(option('runs', '20'))
const REPEATS_LIST = option('repeats', '3,5').split(',').map(Number)
const WRONG_SHARES = option('wrong-share', '0.05,0.1').split(',').map(Number)
const SPLIT = option('split', 'dev')
const BASELINE_SEED = option('baseline-seed', '1')
/** The gate's bootstrap, as the reporter's defaults. */
const BOOTSTRAP = { seed: 20261001, resamples: Number(option('resamples', '1000')) }
const out = (line = '') => process.stdout.write(`${line}\n`)

/** A factory of noisy `versioned` stores: every store it makes draws from its own seeded stream. */
function noisyStore(seed, arrivalBug, wrongShare) {
  const versioned = referenceStore('versioned')
  let made = 0
  return () => {
    const inner = versioned()
    const random = seedrandom(`${seed}/${made++}`)
    const newest = new Map()
    return {
      capabilities: inner.capabilities,
      reset: () => {
        newest.clear()
        return inner.reset()
      },
      ingest(event) {
        const assertion = event.assertion
        if (!arrivalBug || !assertion || assertion.op === 'noop') return inner.ingest(event)
        const key = `${assertion.scope}\u0000${assertion.slot}`
        const latest = newest.get(key)
        const filed = latest !== undefined && Date.parse(assertion.effectiveAt) < Date.parse(latest) ? { ...assertion, effectiveAt: latest } : assertion
        newest.set(key, filed.effectiveAt)
        return inner.ingest({ ...event, assertion: filed })
      },
      advanceClock: (at) => inner.advanceClock?.(at),
      async query(query) {
        const answer = await inner.query(query)
        return random() < wrongShare ? { state: 'known', value: 'misheard' } : answer
      },
    }
  }
}

const split = await loadSplit(undefined, SPLIT)

/** `repeats` repetitions of the split against fresh noisy stores of `seed`: each repetition's rows. */
async function repeatedRun(seed, repeats, wrongShare, arrivalBug = false) {
  const pool = await openPool(noisyStore(seed, arrivalBug, wrongShare), { track: 'structured' })
  const repetitions = []
  for (let repetition = 0; repetition < repeats; repetition++) {
    repetitions.push(await runSplit({ episodes: split.episodes, probes: split.probes, pool, options: { track: 'structured', repetition } }))
  }
  await pool.close()
  return repetitions
}

/** What a suite records and gates from a run's repetitions: pooled metrics, counts per episode, the sample. */
function measured(repetitions) {
  const counted = countRepetitions(repetitions)
  const identical = identicalAnswers(repetitions)
  return { counted, identical, scored: pooledMetrics(counted), sample: sampleOf(counted, QUALITY_METRICS, identical) }
}

const identity = { name: 'tivarq', datasetHash: 'noise-gate', data: 'TIVARQ v1', split: SPLIT, track: 'structured', families: null }

/** A baseline entry as `-u` writes it (each probe's answer per repetition, and the figures they give). */
function recordBaseline(repetitions) {
  return entryOfRepetitions(identity, repetitions)
}

/** Each probe's rows, one per repetition. */
function rowsByProbe(repetitions) {
  const byProbe = new Map()
  for (const rows of repetitions) for (const row of rows) byProbe.set(row.probe_id, [...(byProbe.get(row.probe_id) ?? []), row])
  return byProbe
}

/** How many probe tests fail by the per-probe policy (as the suite's tests judge them), and by the rule before the binomial test. */
function probeFailures(baseline, repetitions) {
  const match = { status: 'ok', entry: baseline }
  const byProbe = rowsByProbe(repetitions)
  let now = 0
  let before = 0
  for (const rows of byProbe.values()) {
    const verdict = judgeProbe(rows, match, false, 'report', true, byProbe.size)
    if (verdict.decision === 'fail') now++
    if (verdict.decision === 'fail' || verdict.decision === 'suspect') before++
  }
  return { now, before }
}

/** The gate's violations of a run against a baseline entry: exact rule, or noise-aware when both sides kept counts. */
function violations(baseline, repetitions, noiseAware) {
  const run = measured(repetitions)
  const repetitionsInput = noiseAware ? { run: run.sample, baseline: baselineSample(baseline), ...BOOTSTRAP } : undefined
  const gate = evaluateGate({ suite: identity.name, current: run.scored, baseline, repetitions: repetitionsInput })
  return { violations: gate.violations, rule: gate.rule }
}

const names = (list) => (list.length === 0 ? 'pass' : `fail (${list.map((violation) => violation.metric).join(', ')})`)
const verdictOf = (probes, violations) =>
  probes === 0 && violations.length === 0
    ? 'pass'
    : `fail (${[probes > 0 ? `${probes} probe tests` : null, violations.length > 0 ? names(violations).slice(6, -1) : null].filter(Boolean).join('; ')})`

/** One configuration: a baseline, then --runs CI runs of the correct and of the buggy store. */
async function measure(wrongShare, repeats) {
  const baselineRuns = await repeatedRun(BASELINE_SEED, repeats, wrongShare)
  const repeatedBaseline = recordBaseline(baselineRuns)
  const singleBaseline = recordBaseline(baselineRuns.slice(0, 1))
  const tally = { whole: 0, byProbe: 0, byGate: 0, oldProbeRule: 0, exactSingle: 0, exactPooled: 0, bug: 0 }
  const rows = []
  let ruleSeen = null
  for (let seed = 2; seed < RUNS + 2; seed++) {
    const runs = await repeatedRun(seed, repeats, wrongShare)
    const probes = probeFailures(repeatedBaseline, runs)
    const noise = violations(repeatedBaseline, runs, true)
    ruleSeen = noise.rule
    const bugRuns = await repeatedRun(seed, repeats, wrongShare, true)
    const bugProbes = probeFailures(repeatedBaseline, bugRuns)
    const bug = violations(repeatedBaseline, bugRuns, true).violations
    const count = (condition) => (condition ? 1 : 0)
    tally.whole += count(probes.now > 0 || noise.violations.length > 0)
    tally.byProbe += count(probes.now > 0)
    tally.byGate += count(noise.violations.length > 0)
    tally.oldProbeRule += count(probes.before > 0)
    tally.exactSingle += count(violations(singleBaseline, runs.slice(0, 1), false).violations.length > 0)
    tally.exactPooled += count(violations(repeatedBaseline, runs, false).violations.length > 0)
    tally.bug += count(bugProbes.now > 0 || bug.length > 0)
    rows.push(`| ${wrongShare} | ${repeats} | ${seed} | ${verdictOf(probes.now, noise.violations)} | ${probes.before} | ${verdictOf(bugProbes.now, bug)} |`)
  }
  return { wrongShare, repeats, tally, rows, rule: ruleSeen }
}

const results = []
for (const wrongShare of WRONG_SHARES) for (const repeats of REPEATS_LIST) results.push(await measure(wrongShare, repeats))

const share = (count) => `${count} of ${RUNS}`
out(
  `noise-gate: split ${SPLIT} (${split.episodes.length} episodes, ${split.probes.length} probes), wrong shares ${WRONG_SHARES.join(', ')}, ${REPEATS_LIST.join(', ')} repetitions per run`,
)
out(
  `baseline: seed 1; CI runs: seeds 2..${RUNS + 1}; the gate said: ${results.map((result) => (result.rule === null ? 'no rule' : describeRule(result.rule))).join(' | ')}`,
)
out(
  `per-probe rule: a probe wrong in every repetition fails its test only when an exact one-sided binomial test against the baseline's error rate gives p < ${Math.round((1 - NOISE_CONFIDENCE) * 100)}%/${split.probes.length} (Bonferroni); else it is suspect`,
)
out()
out(
  '| wrong share | repetitions | correct store: CI runs failed (whole verdict) | by a probe test | by the metric gate | before the binomial rule (a probe wrong in every repetition fails) | exact rule, one run | exact rule, pooled | with the arrival-order bug: CI runs failed (whole verdict) |',
)
out('|---|---|---|---|---|---|---|---|---|')
for (const { wrongShare, repeats, tally } of results)
  out(
    `| ${wrongShare} | ${repeats} | ${share(tally.whole)} | ${share(tally.byProbe)} | ${share(tally.byGate)} | ${share(tally.oldProbeRule)} | ${share(tally.exactSingle)} | ${share(tally.exactPooled)} | ${share(tally.bug)} |`,
  )
out()
out('| wrong share | repetitions | seed | correct store | probes wrong in every repetition | arrival-order bug |')
out('|---|---|---|---|---|---|')
for (const result of results) for (const row of result.rows) out(row)
