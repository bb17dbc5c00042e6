/**
 * compareProbeAgents on real probe runs of the built-in agents over the
 * authored corpus (12 questions): the honest agent (every answer right under
 * both modes) against the ingestion-order agent (right under control, wrong
 * under the probe wherever it needs the turns' real instants).
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { AgentComparisonError, compareProbeAgents, renderAgentComparison } from '../../src/time-grounded/agent-comparison.js'
import { honestAgent, ingestionOrderAgent } from '../../src/time-grounded/agents.js'
import { type ProbeComparison, runProbeVersusControl } from '../../src/time-grounded/comparison.js'
import { timeGroundedCorpus } from '../../src/time-grounded/corpus/index.js'
import { deterministicJudge } from '../../src/time-grounded/judges.js'

const corpus = timeGroundedCorpus()
const judge = deterministicJudge()
let honest: ProbeComparison
let ingestion: ProbeComparison

beforeAll(async () => {
  honest = await runProbeVersusControl(honestAgent(), corpus, { judge })
  ingestion = await runProbeVersusControl(ingestionOrderAgent({ clock: () => new Date('2026-01-15T12:00:00Z') }), corpus, { judge })
})

describe('two agents under the probe, paired per question', () => {
  test('each delta and the difference of deltas, against the runs’ own counts', () => {
    // The runs' counts: honest 12/12 in both; ingestion-order 12/12 under control, k/12 under the probe.
    expect([honest.control.correct, honest.probe.correct, ingestion.control.correct]).toEqual([12, 12, 12])
    const k = ingestion.probe.correct
    expect(k).toBeLessThan(12)
    const comparison = compareProbeAgents(ingestion, honest)
    // A = ingestion-order: delta k/12 − 1; B = honest: 0; B − A = (12 − k)/12.
    expect(comparison.a).toMatchObject({ agent: 'ingestion-order', delta: { n: 12 } })
    expect(comparison.a.delta.value).toBeCloseTo(k / 12 - 1, 14)
    expect(comparison.b.delta).toMatchObject({ value: 0, low: 0, high: 0, n: 12 })
    expect(comparison.difference.value).toBeCloseTo((12 - k) / 12, 14)
    expect(comparison.difference).toMatchObject({ n: 12, seed: 20240101, resamples: 1000, level: 0.95 })
    // Every question's difference is 0 or +1 (honest right where ingestion-order lost it), so every resample is ≥ 0,
    // and the interval is above 0 unless a resample drew none of the 12 − k lost questions.
    expect(comparison.difference.low!).toBeGreaterThanOrEqual(0)
    expect(comparison.leftOut).toBe(0)
    // The paired difference equals B's delta minus A's per question, so its interval is A's turned around.
    expect(comparison.difference.low).toBeCloseTo(-comparison.a.delta.high!, 14)
    expect(comparison.difference.high).toBeCloseTo(-comparison.a.delta.low!, 14)
    expect(comparison.verdict).toBe(comparison.difference.low! > 0 ? 'b-drops-less' : 'no-difference')
    const text = renderAgentComparison(comparison)
    expect(text).toContain('Time-grounded probe, two agents paired per question (12 questions):')
    expect(text).toContain('  B honest: delta +0.0 points, 95% CI [+0.0, +0.0]')
    expect(text).toContain(`  B − A, difference of deltas: +${(((12 - k) / 12) * 100).toFixed(1)} points`)
  })

  test('an agent compared with itself: zero difference, an interval of zero, no difference shown', () => {
    const comparison = compareProbeAgents(ingestion, ingestion)
    expect(comparison.difference).toMatchObject({ value: 0, low: 0, high: 0 })
    expect(comparison.verdict).toBe('no-difference')
    expect(renderAgentComparison(comparison)).toContain("Verdict: no difference shown between the two agents' deltas (95% CI [+0.0, +0.0]).")
  })

  test('runs of other questions are refused, naming both agents and a question only one of them had', () => {
    const fewer: ProbeComparison = { ...honest, control: { ...honest.control, rows: honest.control.rows.slice(1) } }
    const run = () => compareProbeAgents(ingestion, fewer)
    expect(run).toThrow(AgentComparisonError)
    expect(run).toThrow(
      `ingestion-order and honest were asked different questions (12 and 11; 1 only for ingestion-order, e.g. ${honest.control.rows[0]!.question_id}, 0 only for honest); run both on the same dataset.`,
    )
  })
})
