// How often the gate fails CI by chance on a store whose answers vary, and whether the noise-aware rule
// still catches a real bug (the figures in docs/gating.md, "Stores that answer differently each run").
// Run after `npm run build`:
//
//   node scripts/noise-gate.js [--runs 20] [--repeats 5] [--wrong-share 0.1] [--split dev]   (under a minute)
//
// The stochastic store: the built-in `versioned` store (correct), except that each answer is replaced by a
// wrong one ("misheard") with probability --wrong-share, drawn from a seedrandom stream named after the
// run's seed and the store instance (a fresh store per episode and repetition, as the suite makes them).
// The arrival-order bug: the same noisy store, but a fact that arrives after a newer one for the same
// slot is filed as if it began when the newest one did, so a late back-dated message overrides the newer
// fact (late corrections win).
//
// 1. The baseline: --repeats repetitions with seed 1, recorded as `timegroundedSuite(…, { repeats })` does
//    (per-episode, per-repetition counts of every quality metric).
// 2. --runs CI runs with seeds 2, 3, …: each judged by
//    - the exact rule, as a store without repeats is judged: one run against a one-run baseline (its first
//      repetition), any worsening of a gated metric fails;
//    - the exact rule on the values pooled over --repeats repetitions (what a user would get from
//      averaging runs without a noise test);
//    - the noise-aware rule: a paired episode bootstrap, one-sided 99% for the run (Bonferroni over the metrics it measures).
// 3. The same --runs runs of the store with the arrival-order bug, judged by the noise-aware rule.
import seedrandom from 'seedrandom'
import { referenceStore } from '../dist/adapters/reference/index.js'
import { openPool } from '../dist/harness/pool.js'
import { runSplit } from '../dist/harness/runner.js'
import { baselineEntry, baselineSample, repeatsEntry } from '../dist/suite/baseline.js'
import { evaluateGate } from '../dist/suite/gate.js'
import { describeRule } from '../dist/suite/gate-lines.js'
import { NOISE_CONFIDENCE, sampleOf } from '../dist/suite/noise.js'
import { loadSplit } from '../dist/tivarq/dataset.js'
import { QUALITY_METRICS } from '../dist/tivarq/metrics.js'
import { countRepetitions, identicalAnswers, pooledMetrics, probeRepetitions } from '../dist/tivarq/repeats.js'

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : args[at + 1]
}
const RUNS = Number(option('runs', '20'))
const REPEATS = Number(option('repeats', '5'))
const WRONG_SHARE = Number(option('wrong-share', '0.1'))
const SPLIT = option('split', 'dev')
/** The gate's bootstrap, as the reporter's defaults. */
const BOOTSTRAP = { seed: 20261001, resamples: 1000 }
const out = (line = '') => process.stdout.write(`${line}\n`)

/** A factory of noisy `versioned` stores: every store it makes draws from its own seeded stream. */
function noisyStore(seed, arrivalBug) {
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
        return random() < WRONG_SHARE ? { state: 'known', value: 'misheard' } : answer
      },
    }
  }
}

const split = await loadSplit(undefined, SPLIT)

/** `repeats` repetitions of the split against fresh noisy stores of `seed`: each repetition's rows. */
async function repeatedRun(seed, repeats, arrivalBug = false) {
  const pool = await openPool(noisyStore(seed, arrivalBug), { track: 'structured' })
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

/** A baseline entry as `-u` writes it (with repeats, its counts per episode and repetition). */
function recordBaseline(repetitions) {
  const run = measured(repetitions)
  const outcomes = {}
  for (const row of repetitions.flat()) outcomes[row.probe_id] = 'correct'
  const repeats = repetitions.length > 1 ? repeatsEntry(run.counted, run.identical, probeRepetitions(repetitions)) : undefined
  return baselineEntry(identity, outcomes, run.scored, repeats)
}

/** The gate's violations of a run against a baseline entry: exact rule, or noise-aware when both sides kept counts. */
function violations(baseline, repetitions, noiseAware) {
  const run = measured(repetitions)
  const repetitionsInput = noiseAware ? { run: run.sample, baseline: baselineSample(baseline), ...BOOTSTRAP } : undefined
  const gate = evaluateGate({ suite: identity.name, current: run.scored, baseline, repetitions: repetitionsInput })
  return { violations: gate.violations, rule: gate.rule }
}

const baselineRuns = await repeatedRun(1, REPEATS)
const repeatedBaseline = recordBaseline(baselineRuns)
const singleBaseline = recordBaseline(baselineRuns.slice(0, 1))

const seeds = Array.from({ length: RUNS }, (_, i) => i + 2)
const tally = { exactSingle: 0, exactPooled: 0, noiseAware: 0, bug: 0 }
const rows = []
let ruleSeen = null
for (const seed of seeds) {
  const runs = await repeatedRun(seed, REPEATS)
  const exactSingle = violations(singleBaseline, runs.slice(0, 1), false).violations
  const exactPooled = violations(repeatedBaseline, runs, false).violations
  const noise = violations(repeatedBaseline, runs, true)
  ruleSeen = noise.rule
  const bug = violations(repeatedBaseline, await repeatedRun(seed, REPEATS, true), true).violations
  tally.exactSingle += exactSingle.length > 0 ? 1 : 0
  tally.exactPooled += exactPooled.length > 0 ? 1 : 0
  tally.noiseAware += noise.violations.length > 0 ? 1 : 0
  tally.bug += bug.length > 0 ? 1 : 0
  const names = (list) => (list.length === 0 ? 'pass' : `fail (${list.map((violation) => violation.metric).join(', ')})`)
  rows.push(`| ${seed} | ${names(exactSingle)} | ${names(exactPooled)} | ${names(noise.violations)} | ${names(bug)} |`)
}

const share = (count) => `${count} of ${RUNS}`
out(`noise-gate: split ${SPLIT} (${split.episodes.length} episodes, ${split.probes.length} probes), wrong share ${WRONG_SHARE}, ${REPEATS} repetitions per run`)
out(`baseline: seed 1; CI runs: seeds 2..${RUNS + 1}; the gate said: ${ruleSeen === null ? 'no rule' : describeRule(ruleSeen)}`)
out()
out('| rule | correct but noisy store: CI runs failed | noisy store with the arrival-order bug: CI runs failed |')
out('|---|---|---|')
out(`| exact, one run against a one-run baseline | ${share(tally.exactSingle)} | — |`)
out(`| exact, on values pooled over ${REPEATS} repetitions | ${share(tally.exactPooled)} | — |`)
out(`| noise-aware (paired episode bootstrap, one-sided ${NOISE_CONFIDENCE * 100}% for the run) | ${share(tally.noiseAware)} | ${share(tally.bug)} |`)
out()
out('| seed | exact, one run | exact, pooled | noise-aware | arrival-order bug, noise-aware |')
out('|---|---|---|---|---|')
for (const row of rows) out(row)
