// The gate as pure functions: thresholds, regressions against a baseline, the
// baseline file, the per-probe policy and partitions.
import { describe, expect, test } from 'vitest'
import { baselineEntry, isKnownFailure, matchBaseline, parseBaseline, type SuiteIdentity, withSuites } from '../../src/suite/baseline.js'
import { evaluateGate as evaluate, type GateInput, metricChanges } from '../../src/suite/gate.js'
import { describeRule, renderMetricChange, renderViolation } from '../../src/suite/gate-lines.js'
import { type RepetitionSample, regressionRule } from '../../src/suite/noise.js'
import { resolveSuiteOptions, SuiteOptionError } from '../../src/suite/options.js'
import { partitionEpisodes } from '../../src/suite/probes.js'
import { decideProbe, strictDecision } from '../../src/suite/records.js'
import type { ScoredMetrics } from '../../src/tivarq/metrics.js'
import { VITEST_COMMANDS } from '../../src/vitest/commands.js'

/** The violations of a gate decision (the rule and what it could not gate are tested with repeats). */
function evaluateGate(input: GateInput) {
  return evaluate(input).violations
}

const identity: SuiteIdentity = { name: 'tivarq', datasetHash: 'sha256:aaa', data: 'TIVARQ v1', split: 'dev', track: 'structured', families: null }

function scored(leak: number, leakCases: number, accuracy: number, latency = 1, familyLeak: Record<string, number> = {}): ScoredMetrics {
  const byFamily: ScoredMetrics['byFamily'] = {}
  for (const [family, value] of Object.entries(familyLeak)) byFamily[family] = { staleValueLeakageRate: { value, cases: 4 } }
  return {
    metrics: {
      staleValueLeakageRate: { value: leak, cases: leakCases },
      currentStateAccuracy: { value: accuracy, cases: 58 },
      queryLatencyP95Ms: { value: latency, cases: 60 },
    },
    byFamily,
  }
}

const baseline = baselineEntry(
  identity,
  { 'a-q1': 'correct', 'a-q2': 'wrong', 'a-q3': 'error' },
  {},
  scored(0.1, 20, 0.9, 1, { replacement: 0, reversal: 0.25 }),
)

describe('thresholds', () => {
  test('{ max } fails a lower-is-better metric above it, with its value and denominator', () => {
    const violations = evaluateGate({ suite: 'tivarq', current: scored(0.083333, 12, 1), baseline: null, thresholds: { staleValueLeakageRate: { max: 0.05 } } })
    expect(violations.map((violation) => renderViolation(violation, VITEST_COMMANDS))).toEqual([
      '[tivarq] staleValueLeakageRate is 1 of 12 (0.083333), above the threshold (max 0.05). Fix the store, or change the threshold in vitest.config.ts (`-u` never lifts a threshold).',
    ])
  })

  test('{ min } fails a metric below it; a metric inside its bounds passes', () => {
    const violations = evaluateGate({
      suite: 's',
      current: scored(0, 12, 0.8),
      baseline: null,
      thresholds: { currentStateAccuracy: { min: 0.9 }, staleValueLeakageRate: { max: 0.05 } },
    })
    expect(violations.map((violation) => renderViolation(violation, VITEST_COMMANDS))).toEqual([
      '[s] currentStateAccuracy is 0.8 (58 cases), below the threshold (min 0.9). Fix the store, or change the threshold in vitest.config.ts (`-u` never lifts a threshold).',
    ])
  })

  test('per-family thresholds name the family; a metric never measured fails its threshold', () => {
    const current = scored(0, 12, 1, 1, { replacement: 0.5 })
    const violations = evaluateGate({
      suite: 's',
      current,
      baseline: null,
      familyThresholds: { replacement: { staleValueLeakageRate: { max: 0 } }, expiration: { staleValueLeakageRate: { max: 0 } } },
    })
    expect(violations.map((violation) => renderViolation(violation, VITEST_COMMANDS))).toEqual([
      '[s] family replacement: staleValueLeakageRate is 2 of 4 (0.5), above the threshold (max 0). Fix the store, or change the threshold in vitest.config.ts (`-u` never lifts a threshold).',
      '[s] family expiration: staleValueLeakageRate has a threshold but was not measured in this run (no cases: is the capability declared?)',
    ])
  })
})

describe('regressions against the baseline', () => {
  test('every quality metric in the baseline is gated; latency is not; the families that moved are named', () => {
    const violations = evaluateGate({ suite: 'tivarq', current: scored(0.2, 20, 0.9, 50, { replacement: 0.5, reversal: 0.25 }), baseline })
    expect(violations.map((violation) => renderViolation(violation, VITEST_COMMANDS))).toEqual([
      '[tivarq] staleValueLeakageRate rose from 2 of 20 to 4 of 20 (0.1 → 0.2) since the baseline; families: replacement 0/4 → 2/4. Fix the store, or accept with `npx vitest run -u`.',
    ])
  })

  test('a better run passes; a tolerance absorbs a small worsening; `metrics` narrows the gate', () => {
    expect(evaluateGate({ suite: 's', current: scored(0.05, 20, 0.95), baseline })).toEqual([])
    expect(evaluateGate({ suite: 's', current: scored(0.12, 20, 0.9), baseline, regression: { tolerance: 0.05 } })).toEqual([])
    expect(evaluateGate({ suite: 's', current: scored(0.12, 20, 0.9), baseline, regression: { tolerance: { staleValueLeakageRate: 0.01 } } })).toHaveLength(1)
    expect(
      evaluateGate({ suite: 's', current: scored(0.5, 20, 0.5), baseline, regression: { metrics: ['currentStateAccuracy'] } }).map((v) => v.metric),
    ).toEqual(['currentStateAccuracy'])
    expect(evaluateGate({ suite: 's', current: scored(0.5, 20, 0.5), baseline, regression: { metrics: 'none' } })).toEqual([])
  })

  test('`families: true` gates each family as well', () => {
    const violations = evaluateGate({
      suite: 's',
      current: scored(0.1, 20, 0.9, 1, { replacement: 0.25, reversal: 0 }),
      baseline,
      regression: { families: true },
    })
    expect(violations.map((violation) => renderViolation(violation, VITEST_COMMANDS))).toEqual([
      '[s] family replacement: staleValueLeakageRate rose from 0 of 4 to 1 of 4 (0 → 0.25) since the baseline. Fix the store, or accept with `npx vitest run -u`.',
    ])
  })
})

describe('the baseline file', () => {
  test('round-trips through parseBaseline and matches its own suite', () => {
    const file = parseBaseline(JSON.stringify(withSuites(null, '0.1.0', { tivarq: baseline })), 'timegrounded.baseline.json', VITEST_COMMANDS)
    const match = matchBaseline(file, identity, 'timegrounded.baseline.json', VITEST_COMMANDS)
    expect(match.status).toBe('ok')
    expect(isKnownFailure(match, 'a-q1')).toBe(false)
    expect(isKnownFailure(match, 'a-q2')).toBe(true)
    expect(isKnownFailure(match, 'a-q3')).toBe(false) // an error is never a known failure
    expect(isKnownFailure(match, 'new-probe')).toBe(false)
    expect(matchBaseline(file, { ...identity, name: 'other' }, 'b.json', VITEST_COMMANDS)).toEqual({ status: 'missing' })
  })

  test('a baseline on another dataset, or other families, is refused with the fix', () => {
    const file = withSuites(null, '0.1.0', { tivarq: baseline })
    const other = matchBaseline(
      file,
      { ...identity, datasetHash: 'sha256:bbb', data: 'TIVARQ variant 7 (timegrounded-variant v1)' },
      'timegrounded.baseline.json',
      VITEST_COMMANDS,
    )
    expect(other).toEqual({
      status: 'refused',
      reason:
        'timegrounded.baseline.json was recorded on TIVARQ v1 sha256:aaa (split dev) but suite "tivarq" runs TIVARQ variant 7 (timegrounded-variant v1) sha256:bbb (split dev); a baseline is never compared across datasets. Re-record it with `npx vitest run -u`.',
    })
    // A baseline written before variants names no data: the hash alone still refuses it.
    const older = withSuites(null, '0.1.0', { tivarq: { ...baseline, data: undefined } })
    expect(matchBaseline(older, { ...identity, datasetHash: 'sha256:bbb' }, 'b.json', VITEST_COMMANDS)).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('recorded on dataset sha256:aaa'),
    })
    expect(matchBaseline(file, { ...identity, families: ['expiration'] }, 'b.json', VITEST_COMMANDS).status).toBe('refused')
  })

  test('a malformed file is reported field by field with its path', () => {
    expect(() => parseBaseline('{"format":"timegrounded.baseline.v2","harness_version":"1","suites":{"x":{"split":3}}}', 'tg.json', VITEST_COMMANDS)).toThrow(
      /tg\.json: suites\.x\.dataset_hash: /,
    )
    expect(() => parseBaseline('not json', 'tg.json', VITEST_COMMANDS)).toThrow(/^tg\.json:1:1: not JSON/)
  })

  test('a broken file is named by file, line and column, with the fix', () => {
    // A hand-edited baseline with a trailing comma on line 3: the brace after it, line 4 column 1, is where JSON breaks.
    expect(() => parseBaseline('{\n  "format": "timegrounded.baseline.v2",\n  "suites": {},\n}\n', 'tg.json', VITEST_COMMANDS)).toThrow(
      'tg.json:4:1: not JSON (expected a key in double quotes, found "}"). Delete it and record a new one with `npx vitest run -u`.',
    )
    expect(() => parseBaseline('\uFEFF{}', 'tg.json', VITEST_COMMANDS)).toThrow(/^tg\.json:1:1: starts with a byte order mark \(EF BB BF\)/)
  })
})

test('watch mode: metric changes since the previous run, with their direction, counts and the families that moved', () => {
  const changes = metricChanges(scored(0.1, 20, 0.9, 1, { replacement: 0.25, reversal: 0 }), scored(0, 20, 0.9, 7, { replacement: 0, reversal: 0 }))
  expect(changes.map(renderMetricChange)).toEqual(['staleValueLeakageRate fell from 2 of 20 to 0 of 20 (0.1 → 0), better; families: replacement 1/4 → 0/4'])
})

test('the per-probe policy', () => {
  expect(decideProbe('correct', false, false)).toBe('pass')
  expect(decideProbe('unsupported', false, false)).toBe('skip')
  expect(decideProbe('wrong', false, false)).toBe('fail')
  expect(decideProbe('wrong', true, false)).toBe('known_failure')
  expect(decideProbe('wrong', false, true)).toBe('known_failure')
  expect(decideProbe('error', false, true)).toBe('fail')
  // An error is never a known failure, even where the baseline recorded one.
  expect(decideProbe('error', true, false)).toBe('fail')
  // With repeats: right in some repetitions, wrong in others. Reported and passing, unless the suite asks to fail it.
  expect(decideProbe('flaky', false, false)).toBe('flaky')
  expect(decideProbe('flaky', false, false, 'fail')).toBe('fail')
  expect(decideProbe('flaky', true, false, 'fail')).toBe('known_failure')
})

test('the per-probe policy when no gate runs: only a right answer passes', () => {
  expect(strictDecision('correct')).toBe('pass')
  for (const result of ['wrong', 'unsupported', 'flaky', 'error'] as const) expect(strictDecision(result)).toBe('fail')
})

test('partitions are disjoint and together hold every episode, in file order', () => {
  const episodes = Array.from({ length: 12 }, (_, i) => `e${i}`)
  const parts = [1, 2, 3].map((index) => partitionEpisodes(episodes, { index, count: 3 }))
  expect(parts[0]).toEqual(['e0', 'e3', 'e6', 'e9'])
  expect(parts.flat().sort()).toEqual([...episodes].sort())
  expect(partitionEpisodes(episodes, undefined)).toEqual(episodes)
})

describe('with repeats: which rule, and what the noise-aware rule cannot gate', () => {
  // Each episode's stale-leakage counts in each repetition, one case per repetition: its first `leaks` repetitions leaked.
  const sample = (episodes: number, leaks: (episode: number) => number, repetitions: number, identical = false): RepetitionSample => ({
    repetitions,
    identical,
    episodes: Object.fromEntries(
      Array.from({ length: episodes }, (_, i) => [
        `replacement-${String(i).padStart(2, '0')}`,
        { staleValueLeakageRate: Array.from({ length: repetitions }, (_, r) => ({ numerator: r < leaks(i) ? 1 : 0, denominator: 1 })) },
      ]),
    ),
  })
  const bootstrap = { seed: 7, resamples: 1000 }

  test('a deterministic store keeps the exact rule; a noisy one against a repeated baseline gets the noise-aware rule', () => {
    expect(
      regressionRule(
        sample(30, () => 0, 1),
        sample(30, () => 0, 1),
        bootstrap,
      ),
    ).toEqual({ kind: 'exact', why: 'identical' })
    expect(
      regressionRule(
        sample(30, () => 0, 3, true),
        null,
        bootstrap,
      ),
    ).toEqual({ kind: 'exact', why: 'identical' })
    expect(
      regressionRule(
        sample(30, () => 1, 3),
        null,
        bootstrap,
      ),
    ).toEqual({ kind: 'exact', why: 'baseline-one-repetition' })
    expect(
      regressionRule(
        sample(30, () => 1, 3),
        sample(30, () => 1, 5),
        bootstrap,
      ),
    ).toEqual({
      kind: 'noise-aware',
      runRepetitions: 3,
      baselineRepetitions: 5,
      ...bootstrap,
    })
    expect(describeRule({ kind: 'exact', why: 'one-repetition' })).toBe('exact rule: one repetition in the baseline and in this run')
  })

  test('a rise inside the noise passes; one beyond it fails with its interval; fewer than 20 episodes are not gated', () => {
    const metrics = (leak: number): ScoredMetrics => ({ metrics: { staleValueLeakageRate: { value: leak, cases: 90 } }, byFamily: {} })
    const entry = baselineEntry(identity, {}, {}, metrics(0.1))
    const gate = (run: RepetitionSample, before: RepetitionSample, leak: number) =>
      evaluate({ suite: 'tivarq', current: metrics(leak), baseline: entry, repetitions: { run, baseline: before, ...bootstrap } })
    // 30 episodes, 3 repetitions each: the baseline leaked once in every third episode.
    const before = sample(30, (i) => (i % 3 === 0 ? 1 : 0), 3)
    const alike = gate(
      sample(30, (i) => (i % 3 === 1 ? 1 : 0), 3),
      before,
      0.1,
    )
    expect(alike.rule?.kind).toBe('noise-aware')
    expect(alike.violations).toEqual([])
    const worse = gate(
      sample(30, (i) => (i % 3 === 2 ? 1 : 0) + (i < 20 ? 1 : 0), 3),
      before,
      0.32,
    )
    expect(worse.violations).toHaveLength(1)
    const [violation] = worse.violations
    expect(violation).toMatchObject({ kind: 'regression', metric: 'staleValueLeakageRate', change: { kind: 'measured', episodes: 30, confidence: 0.99 } })
    if (violation?.kind !== 'regression' || violation.change === null) throw new Error('expected a measured regression')
    expect(violation.change.worse).toBeCloseTo(20 / 90, 6)
    expect(violation.change.low).toBeGreaterThan(0)
    expect(violation.change.low).toBeLessThan(violation.change.worse)
    const few = gate(
      sample(19, () => 3, 3),
      sample(19, () => 0, 3),
      1,
    )
    expect(few.violations).toEqual([])
    expect(few.notGated).toEqual([{ metric: 'staleValueLeakageRate', family: null, episodes: 19 }])
  })

  test('`repeats` and `flaky` are checked when the suite loads', () => {
    expect(resolveSuiteOptions({}).repeats).toBe(1)
    expect(() => resolveSuiteOptions({ repeats: 0 })).toThrow(SuiteOptionError)
    expect(() => resolveSuiteOptions({ repeats: 0 })).toThrow(/`repeats`/)
    expect(() => resolveSuiteOptions({ flaky: 'ignore' as 'fail' })).toThrow(/`flaky`.*report.*fail/s)
  })
})
