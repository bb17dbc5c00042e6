import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import seedrandom from 'seedrandom'
import { classifyRow } from '../../src/tivarq/row-verdicts.js'
import { computeMetrics } from '../../src/tivarq/metrics-tally.js'
import { episodeTallies, transitionSuccessInterval } from '../../src/tivarq/episode-bootstrap.js'
import { scoreRows } from '../../src/tivarq/score.js'
import { transitionOutcomes } from '../../src/tivarq/transitions.js'
import type { PredictionRow, Prediction } from '../../src/tivarq/results.js'
import type { Answer } from '../../src/tivarq/schema.js'
import { baseOf, simulatedRows } from './score-fixtures.js'
import { expectPublishedMetrics, PUBLISHED_LATEST_SMOKE } from '../support/published.js'
import { resultJson } from '../../src/harness/result-files.js'

type Spec = {
  ep: string
  fam: string
  role?: 'target' | 'control' | 'scope_control'
  phase: 'pre' | 'post' | 'check'
  cap?: 'basic' | 'clock' | 'history'
  exp: Answer
  old?: string | string[] | null
  pred?: Answer | 'unsupported' | 'error'
  ms?: number
  /** What the adapter reported beside its answer: inside `prediction`, as upstream keeps it. */
  reported?: Pick<Prediction, 'usage' | 'cost_usd'>
  extra?: Record<string, unknown>
}

let counter = 0
function row(spec: Spec): PredictionRow {
  counter++
  const base = {
    probe_id: `${spec.ep}-q${counter}`,
    episode_id: spec.ep,
    family: spec.fam,
    expected: spec.exp,
    role: spec.role ?? 'target',
    transition_id: `${spec.ep}-main`,
    phase: spec.phase,
    capability: spec.cap ?? 'basic',
    old_value: spec.old ?? null,
    repetition: 0,
  }
  if (spec.pred === 'unsupported') return { ...base, status: 'unsupported' }
  if (spec.pred === 'error') return { ...base, status: 'error', latency_ms: 3, error: 'query: adapter said no' }
  return { ...base, status: 'answered', prediction: { ...(spec.pred ?? spec.exp), ...spec.reported }, latency_ms: spec.ms ?? 1, ...spec.extra } as PredictionRow
}

const known = (value: string | string[]): Answer => ({ state: 'known', value })
const none = (state: 'unknown' | 'withdrawn' | 'needs_clarification' | 'expired'): Answer => ({ state, value: null }) as Answer

/**
 * Fourteen hand-built rows over four episodes. Reference values (by hand):
 * - counts: 14 total, 12 answered, 1 unsupported, 1 error → complete false
 * - current (answered, not history) = rows 1-9,13,14 = 11; correct 8 → 8/11 = 0.727273
 * - controls (current, control/scope_control, phase not pre) = rows 2,6,9; correct 2,9 → 2/3 = 0.666667
 * - transitions with pre and post: E1 (post leaks email), E2 (control 6 wrong), E3 (succeeds);
 *   E4 has no pre → 1/3 = 0.333333
 * - stale risk: rows 3,5,8,13 (4); leaks 3 (email) and 13 (trial) → 2/4 = 0.5
 * - clarification: tp 1 (row 8) → precision 1, recall 1, f1 1
 * - abstention: tp rows 5 and 14, fn row 13 → precision 1, recall 2/3 = 0.666667, f1 4/5 = 0.8
 * - historical: row 10 right → 1 (1); expiration: row 13 wrong → 0 (1)
 * - latencies 1..12 → p50 index floor(11·0.5)=5 → 6; p95 index floor(10.45)=10 → 11
 * - update lag: rows carrying a lag 3,5,8 = 3 (row 13 carries none, as in upstream's older files);
 *   observed 150.5 and 7 → mean 78.75, p95 index floor(0.95)=0 → 7; censored 1 (row 8, whose
 *   recorded 120 ms is not an observation)
 * - tokens: prompt 10+5 = 15, completion 2, 2 cases; cost 0.000001+0.0000025 = 0.0000035, 2 cases
 */
function handRows(): PredictionRow[] {
  counter = 0
  return [
    row({
      ep: 'replacement-00',
      fam: 'replacement',
      phase: 'pre',
      exp: known('email'),
      ms: 5,
      reported: { usage: { prompt_tokens: 10, completion_tokens: 2 }, cost_usd: 0.000001 },
    }),
    row({
      ep: 'replacement-00',
      fam: 'replacement',
      role: 'control',
      phase: 'post',
      exp: known('English'),
      ms: 1,
      reported: { usage: { prompt_tokens: 5 }, cost_usd: 0.0000025 },
    }),
    row({
      ep: 'replacement-00',
      fam: 'replacement',
      phase: 'post',
      exp: known('chat'),
      old: 'email',
      pred: known('email'),
      ms: 9,
      extra: { update_lag_ms: 150.5, update_lag_polls: 3, update_lag_censored: false },
    }),
    row({ ep: 'withdrawal-00', fam: 'withdrawal', phase: 'pre', exp: known('jazz'), ms: 3 }),
    row({
      ep: 'withdrawal-00',
      fam: 'withdrawal',
      phase: 'post',
      exp: none('withdrawn'),
      old: 'jazz',
      ms: 7,
      extra: { update_lag_ms: 7, update_lag_polls: 0, update_lag_censored: false },
    }),
    row({ ep: 'withdrawal-00', fam: 'withdrawal', role: 'control', phase: 'post', exp: known('dark'), pred: known('light'), ms: 2 }),
    row({ ep: 'ambiguity-00', fam: 'ambiguity', phase: 'pre', exp: known('A'), ms: 8 }),
    row({
      ep: 'ambiguity-00',
      fam: 'ambiguity',
      phase: 'post',
      exp: none('needs_clarification'),
      old: 'A',
      ms: 4,
      extra: { update_lag_ms: 120, update_lag_polls: 2, update_lag_censored: true },
    }),
    row({ ep: 'ambiguity-00', fam: 'ambiguity', role: 'scope_control', phase: 'check', exp: known('X'), ms: 6 }),
    row({ ep: 'ambiguity-00', fam: 'ambiguity', phase: 'check', cap: 'history', exp: known('A'), ms: 10 }),
    row({ ep: 'ambiguity-00', fam: 'ambiguity', phase: 'check', cap: 'clock', exp: known('A'), pred: 'unsupported' }),
    row({ ep: 'ambiguity-00', fam: 'ambiguity', role: 'control', phase: 'post', exp: known('Y'), pred: 'error' }),
    row({ ep: 'expiration-00', fam: 'expiration', phase: 'post', cap: 'clock', exp: none('expired'), old: 'trial', pred: known('trial'), ms: 12 }),
    row({ ep: 'expiration-00', fam: 'expiration', role: 'control', phase: 'pre', exp: none('unknown'), ms: 11 }),
  ]
}

describe('scoreRows on hand-built rows', () => {
  const report = scoreRows(handRows(), { seed: 1, resamples: 500 })

  test('counts and completeness', () => {
    expect(report.complete).toBe(false)
    expect(report.probe_counts).toEqual({ total: 14, answered: 12, unsupported: 1, error: 1 })
    expect(report.interrupted).toBeUndefined()
  })

  test('every metric equals the hand-computed reference', () => {
    expect(report.metrics).toEqual({
      transition_success_rate: { score: 0.333333, cases: 3 },
      current_state_accuracy: { score: 0.727273, cases: 11 },
      stale_value_leakage_rate: { score: 0.5, cases: 4 },
      unaffected_fact_retention: { score: 0.666667, cases: 3 },
      clarification: { precision: 1, recall: 1, f1: 1, tp: 1, fp: 0, fn: 0 },
      abstention: { precision: 1, recall: 0.666667, f1: 0.8, tp: 2, fp: 0, fn: 1 },
      historical_accuracy: { score: 1, cases: 1 },
      expiration_accuracy: { score: 0, cases: 1 },
      query_latency_ms: { p50: 6, p95: 11, cases: 12 },
      update_lag_ms: { observed_mean: 78.75, observed_p95: 7, observed: 2, censored: 1, post_change_cases: 3 },
      reported_tokens: { prompt: 15, completion: 2, cases_with_usage: 2 },
      reported_cost_usd: { total: 0.0000035, cases_with_cost: 2 },
    })
  })

  test('family breakdown in benchmark order, with per-family denominators', () => {
    expect(Object.keys(report.by_family)).toEqual(['replacement', 'withdrawal', 'expiration', 'ambiguity'])
    expect(report.by_family.ambiguity?.probe_counts).toEqual({ total: 6, answered: 4 })
    expect(report.by_family.ambiguity?.metrics.transition_success_rate).toEqual({ score: 1, cases: 1 })
    expect(report.by_family.replacement?.metrics.transition_success_rate).toEqual({ score: 0, cases: 1 })
    expect(report.by_family.expiration?.metrics.transition_success_rate).toEqual({ score: null, cases: 0 })
    expect(report.by_family.expiration?.metrics.stale_value_leakage_rate).toEqual({ score: 1, cases: 1 })
  })

  test('transition outcomes say why each failed', () => {
    const outcomes = transitionOutcomes(handRows())
    expect(outcomes.map((t) => [t.episode_id, t.success, t.pre_correct, t.post_correct, t.leak, t.controls])).toEqual([
      ['replacement-00', false, true, false, true, { cases: 1, correct: 1 }],
      ['withdrawal-00', false, true, true, false, { cases: 1, correct: 0 }],
      ['ambiguity-00', true, true, true, false, { cases: 1, correct: 1 }],
    ])
  })

  test('classifyRow names stale leaks apart from other wrong answers', () => {
    expect(handRows().map(classifyRow)).toEqual([
      'correct',
      'correct',
      'stale_leak',
      'correct',
      'correct',
      'wrong',
      'correct',
      'correct',
      'correct',
      'correct',
      'unsupported',
      'error',
      'stale_leak',
      'correct',
    ])
  })

  test('a transition whose episode has no control row does not succeed', () => {
    const rows = handRows().filter((r) => !(r.episode_id === 'ambiguity-00' && r.role !== 'target'))
    expect(computeMetrics(rows).transition_success_rate).toEqual({ score: 0, cases: 3 })
  })

  test('list values compare canonically (order and case-insensitive sort)', () => {
    counter = 0
    const rows = [
      row({
        ep: 'add_vs_replace-00',
        fam: 'add_vs_replace',
        phase: 'post',
        exp: known(['jazz', 'Blues']),
        old: 'jazz',
        pred: known(['jazz', 'Blues', 'jazz']),
      }),
      row({ ep: 'add_vs_replace-00', fam: 'add_vs_replace', phase: 'check', exp: known('rock'), old: ['b', 'A'], pred: known(['A', 'b']) }),
    ]
    expect(rows.map(classifyRow)).toEqual(['correct', 'stale_leak'])
  })
})

describe('empty denominators give null, never 0', () => {
  test('no rows at all', () => {
    const report = scoreRows([], { seed: 1 })
    expect(report.complete).toBe(true)
    expect(report.metrics.transition_success_rate).toEqual({ score: null, cases: 0 })
    expect(report.metrics.current_state_accuracy).toEqual({ score: null, cases: 0 })
    expect(report.metrics.clarification).toEqual({ precision: null, recall: null, f1: null, tp: 0, fp: 0, fn: 0 })
    expect(report.metrics.query_latency_ms).toEqual({ p50: null, p95: null, cases: 0 })
    expect(report.metrics.update_lag_ms.observed_mean).toBeNull()
    // A sum over no cost is 0, as upstream writes it; `cases_with_cost` says none was reported.
    expect(report.metrics.reported_cost_usd).toEqual({ total: 0, cases_with_cost: 0 })
    expect(report.transition_success_95pct_bootstrap_ci).toBeNull()
    expect(report.transition_success_bootstrap).toMatchObject({ low: null, high: null, defined: 0, seed: 1, resamples: 1000 })
    expect(report.by_family).toEqual({})
  })
  test('only unsupported rows', () => {
    const report = scoreRows(
      simulatedRows('smoke', 'latest').filter((r) => r.status === 'unsupported'),
      { seed: 1 },
    )
    expect(report.complete).toBe(true)
    expect(report.metrics.historical_accuracy).toEqual({ score: null, cases: 0 })
    expect(report.metrics.expiration_accuracy).toEqual({ score: null, cases: 0 })
  })
})

describe('published smoke figures (structured track)', () => {
  test('latest: 0.9 on 10 transitions; 54 answered, 6 unsupported; 0.944444 (54), 0.083333 (12), 1.0 (13)', () => {
    const report = scoreRows(simulatedRows('smoke', 'latest'), { seed: 20261001 })
    expect(report.complete).toBe(true)
    expect(report.probe_counts).toEqual(PUBLISHED_LATEST_SMOKE.probe_counts)
    expectPublishedMetrics(report.metrics, PUBLISHED_LATEST_SMOKE)
  })

  test.each(['smoke', 'dev', 'test'] as const)('oracle on %s: transition success 1.0, every rate perfect, no leak', (split) => {
    const report = scoreRows(simulatedRows(split, 'oracle'), { seed: 20261001 })
    expect(report.metrics.transition_success_rate.score).toBe(1)
    expect(report.metrics.current_state_accuracy.score).toBe(1)
    expect(report.metrics.stale_value_leakage_rate.score).toBe(0)
    expect(report.transition_success_95pct_bootstrap_ci).toEqual([1, 1])
    expect(report.transition_success_bootstrap).toMatchObject({ low: 1, high: 1 })
    if (split === 'smoke') {
      expect(report.metrics.transition_success_rate.cases).toBe(13)
      expect(report.probe_counts).toEqual({ total: 60, answered: 60, unsupported: 0, error: 0 })
    }
  })
})

describe('bootstrap', () => {
  const rows = simulatedRows('dev', 'latest')

  test('deterministic for a seed; the seed and resamples are in the report', () => {
    const report = scoreRows(rows, { seed: 42 })
    const a = report.transition_success_bootstrap
    expect(scoreRows(rows, { seed: 42 }).transition_success_bootstrap).toEqual(a)
    expect(a).toMatchObject({ seed: 42, resamples: 1000, defined: 1000, unit: 'episode', repeated_draws: 'counted_separately' })
    expect(a.low as number).toBeLessThan(0.9)
    expect(a.high as number).toBeGreaterThan(0.9)
    // Upstream's key holds the same interval as the two-number list its readers index.
    expect(report.transition_success_95pct_bootstrap_ci).toEqual([a.low, a.high])
    const b = scoreRows(rows, { seed: 43, resamples: 700 }).transition_success_bootstrap
    expect(b.resamples).toBe(700)
  })

  test('fewer than 500 resamples is refused', () => {
    expect(() => scoreRows(rows, { seed: 1, resamples: 100 })).toThrow(/at least 500/)
  })

  // Reference: resample episodes with the same seeded stream, relabel every draw
  // ("<id>#<k>") and score the concatenated rows with the full scorer.
  function relabelledScores(seed: number, resamples: number, relabel: boolean): number[] {
    const episodes = episodeTallies(rows).map((t) => t.episode_id)
    const byEpisode = new Map(episodes.map((id) => [id, rows.filter((r) => r.episode_id === id)]))
    const prng = seedrandom(String(seed))
    const scores: number[] = []
    for (let r = 0; r < resamples; r++) {
      const drawn: PredictionRow[] = []
      for (let k = 0; k < episodes.length; k++) {
        const id = episodes[Math.floor(prng() * episodes.length)] as string
        for (const original of byEpisode.get(id) ?? []) drawn.push(relabel ? { ...original, episode_id: `${id}#${k}` } : original)
      }
      const score = computeMetrics(drawn).transition_success_rate.score
      if (score !== null) scores.push(score)
    }
    return scores.sort((x, y) => x - y)
  }

  test('repeated draws count separately: equals scoring relabelled draws with the full scorer', () => {
    const interval = transitionSuccessInterval(rows, { seed: 7, resamples: 500 })
    const labelled = relabelledScores(7, 500, true)
    expect(interval.low).toBe(labelled[Math.floor(499 * 0.025)])
    expect(interval.high).toBe(labelled[Math.floor(499 * 0.975)])
    // Collapsing repeated draws by episode id (the upstream behaviour) gives other resample scores.
    expect(relabelledScores(7, 500, false)).not.toEqual(labelled)
  })
})

describe('interrupted runs', () => {
  test('fewer rows than expected: incomplete, with what finished', () => {
    const rows = simulatedRows('smoke', 'oracle').slice(0, 25)
    const report = scoreRows(rows, { seed: 1, expectedProbes: 60 })
    expect(report.complete).toBe(false)
    expect(report.interrupted).toEqual({ expected_probes: 60, finished_probes: 25 })
    expect(report.probe_counts.total).toBe(25)
  })

  test('fewer rows because the user chose a subset: incomplete and `selected`, never `interrupted`', () => {
    const rows = simulatedRows('smoke', 'oracle').slice(0, 4)
    const report = scoreRows(rows, { seed: 1, expectedProbes: 60, missingRows: 'selected' })
    expect(report.complete).toBe(false)
    expect(report.interrupted).toBeUndefined()
    expect(report.selected).toEqual({ expected_probes: 60, selected_probes: 4 })
  })
})

describe('update lag (spec section 5)', () => {
  const post = (lag: number | null, polls: number | null, censored: boolean | null, i: number): PredictionRow =>
    row({
      ep: `replacement-0${i}`,
      fam: 'replacement',
      phase: 'post',
      exp: known('chat'),
      old: 'email',
      ms: 2,
      extra: { update_lag_ms: lag, update_lag_polls: polls, update_lag_censored: censored },
    })

  test('censored rows carry their elapsed lag but count only as censored; rows without a lag do not count, as upstream selects them', () => {
    counter = 0
    const rows = [post(10, 1, false, 1), post(30, 2, false, 2), post(5000, 3, true, 3), post(9000, 3, true, 4), post(null, null, null, 5)]
    expect(computeMetrics(rows).update_lag_ms).toEqual({ observed_mean: 20, observed_p95: 10, observed: 2, censored: 2, post_change_cases: 4 })
  })
})

describe('scoreRows judges each row once, and counts as the row-by-row functions count', () => {
  // Oracle rows of the dev split, each kept, turned into a stale leak, an abstention, a clarification, an error or
  // unsupported, with latencies, lags and reported usage, in any order and any subset: the report's metrics, family
  // by family and overall, and its interval, equal what computeMetrics and transitionSuccessInterval give for the same rows.
  const oracle = simulatedRows('dev', 'oracle')
  const changeArb = fc.constantFrom('keep', 'stale', 'unknown', 'clarify', 'expired', 'error', 'unsupported', 'history-wrong', 'other-family')
  const changed = (base: PredictionRow, change: string, i: number): PredictionRow => {
    // A row of another family than the rest of its episode: each family is then grouped on its own rows.
    if (change === 'other-family' && i % 5 === 0) return { ...base, family: 'replacement' }
    if (base.status !== 'answered') return base
    const answer = (prediction: Answer): PredictionRow => ({ ...base, prediction: { ...prediction, usage: i % 4 === 0 ? { prompt_tokens: i } : undefined } })
    switch (change) {
      case 'stale':
        return base.old_value === null ? base : answer({ state: 'known', value: base.old_value } as Answer)
      case 'unknown':
        return answer({ state: 'unknown', value: null })
      case 'clarify':
        return answer({ state: 'needs_clarification', value: null })
      case 'expired':
        return answer({ state: 'expired', value: null })
      case 'error':
        return { ...baseOf(base), status: 'error', latency_ms: 2, error: 'query failed' }
      case 'unsupported':
        return { ...baseOf(base), status: 'unsupported' }
      case 'history-wrong':
        return base.capability === 'history' ? answer({ state: 'withdrawn', value: null }) : base
      default:
        return i % 9 === 0 ? { ...base, update_lag_ms: i, update_lag_censored: i % 2 === 0 } : base
    }
  }
  test('over changed, reordered and partial rows of the dev split', () => {
    fc.assert(
      fc.property(fc.array(changeArb, { minLength: oracle.length, maxLength: oracle.length }), fc.integer({ min: 0, max: 2 ** 31 }), (changes, pick) => {
        const prng = seedrandom(String(pick))
        // Half the cases keep every episode in one family, as harnesses write them: the whole's transitions are shared out.
        const kept = pick % 4 < 2 ? changes.map((change) => (change === 'other-family' ? 'keep' : change)) : changes
        const rows = oracle.map((base, i) => changed(base, kept[i] as string, i)).filter(() => prng() < 0.9)
        if (pick % 2 === 0) rows.reverse()
        const report = scoreRows(rows, { seed: pick, resamples: 500 })
        expect(report.metrics).toEqual(computeMetrics(rows))
        for (const [family, slice] of Object.entries(report.by_family))
          expect(slice.metrics).toEqual(computeMetrics(rows.filter((row) => row.family === family)))
        expect(report.transition_success_bootstrap).toEqual(transitionSuccessInterval(rows, { seed: pick, resamples: 500 }))
      }),
      { numRuns: 40 },
    )
  })
})

test('a family named like an Object.prototype member (__proto__, constructor, toString) is a family like any other in by_family and the table', () => {
  const rows = simulatedRows('smoke', 'oracle')
  const names = ['__proto__', 'constructor', 'toString']
  const renamed = rows.map((row, i) => (i < 15 ? { ...row, family: names[i % 3] as string } : row))
  const report = scoreRows(renamed, { seed: 1 })
  for (const name of names) expect(Object.hasOwn(report.by_family, name)).toBe(true)
  const counted = Object.values(report.by_family).reduce((sum, family) => sum + family.probe_counts.total, 0)
  expect(counted).toBe(60)
  expect(Object.getOwnPropertyDescriptor(JSON.parse(resultJson(report)).by_family, '__proto__')?.value.probe_counts.total).toBe(5)
})
