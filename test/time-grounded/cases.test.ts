import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import type { TimeGroundedAgent } from '../../src/time-grounded/agent.js'
import { honestAgent, ingestionOrderAgent } from '../../src/time-grounded/agents.js'
import { GroundingModeError } from '../../src/time-grounded/agent.js'
import { timeGroundedFailureMessage } from '../../src/time-grounded/case-failure.js'
import { planTimeGroundedCases, type TimeGroundedCaseRecord } from '../../src/time-grounded/cases.js'
import { runProbeVersusControl } from '../../src/time-grounded/comparison.js'
import { loadGroundedDataset } from '../../src/time-grounded/dataset.js'
import { deterministicJudge } from '../../src/time-grounded/judges.js'
import { renderTimeGroundedSummary } from '../../src/time-grounded/render.js'
import { summarizeTimeGrounded } from '../../src/time-grounded/summary.js'

async function runAll(agent: TimeGroundedAgent, options = {}): Promise<TimeGroundedCaseRecord[]> {
  const plan = await planTimeGroundedCases(agent, options)
  const metas: TimeGroundedCaseRecord[] = []
  for (const planned of plan.cases) metas.push(await planned.run())
  return metas
}

describe('planning the time-grounded suite', () => {
  test('one case per question for control then probe, with stable ids and names', async () => {
    const plan = await planTimeGroundedCases(honestAgent())
    expect(plan.cases).toHaveLength(24)
    expect(plan.cases[0]).toMatchObject({ id: 'time-grounded/control/tg-asof-01', runName: 'control', questionId: 'tg-asof-01' })
    expect(plan.cases[12]!.name).toBe('probe (timestamps-only) › tg-asof-01: Which gym was I a member of five weeks ago?')
    expect(plan.grounding.probe.scaffolding_removed).toBe(true)
  })

  test('a text-only agent is refused at planning time, before any call', async () => {
    let called = false
    const agent: TimeGroundedAgent = {
      name: 'plain',
      answer: () => {
        called = true
        return 'x'
      },
    }
    await expect(planTimeGroundedCases(agent)).rejects.toBeInstanceOf(GroundingModeError)
    expect(called).toBe(false)
  })

  test('metas are plain JSON and survive a serialisation round trip', async () => {
    const metas = await runAll(honestAgent(), { ceiling: true })
    expect(metas).toHaveLength(36)
    expect(JSON.parse(JSON.stringify(metas))).toEqual(metas)
    expect(metas[0]!.grounding?.mode).toBe('timestamps-and-text')
    expect(metas[1]!.grounding).toBeNull()
  })
})

describe('summary and rendering', () => {
  test('honest agent: equal scores, zero delta, counts and the caveat', async () => {
    const summary = summarizeTimeGrounded(await runAll(honestAgent(), { ceiling: true }))
    expect(summary.suites).toHaveLength(1)
    const suite = summary.suites[0]!
    expect(suite.control).toEqual({ correct: 12, questions: 12, accuracy: 1, errors: 0, unjudged: 0 })
    expect(suite.probe).toEqual({ correct: 12, questions: 12, accuracy: 1, errors: 0, unjudged: 0 })
    expect(suite.ceiling?.correct).toBe(12)
    expect(suite.delta).toMatchObject({ value: 0, n: 12 })
    const text = renderTimeGroundedSummary(summary)
    expect(text).toContain('control (timestamps-and-text)  100.0% (12/12)')
    expect(text).toContain('probe   (timestamps-only)      100.0% (12/12)')
    expect(text).toContain('delta   (probe − control)      ±0.0 pts, 95% CI [0.0, 0.0] (paired bootstrap over 12 questions')
    expect(text).toContain('Twelve questions is a probe, not a ranking')
  })

  test('ingestion-order agent: probe failures say the control got them right', async () => {
    const metas = await runAll(ingestionOrderAgent({ clock: () => new Date('2026-01-15T12:00:00Z') }))
    const summary = summarizeTimeGrounded(metas)
    expect(summary.suites[0]!.probe.correct).toBeLessThan(12)
    expect(summary.suites[0]!.delta!.value).toBeLessThan(0)
    const failed = metas.find((m) => m.run === 'probe' && timeGroundedFailureMessage(m) !== null)!
    expect(timeGroundedFailureMessage(failed)).toContain('The control answered it correctly with dates printed in the prompt')
    expect(metas.filter((m) => m.run === 'control').every((m) => timeGroundedFailureMessage(m) === null)).toBe(true)
  })

  test('a partial report (a shard) gets no delta and says why', async () => {
    const metas = (await runAll(honestAgent())).filter((m) => m.order < 6)
    const summary = summarizeTimeGrounded(metas)
    expect(summary.suites[0]!.delta).toBeNull()
    expect(renderTimeGroundedSummary(summary)).toContain('not computed: 6 control and 6 probe results of 12 questions in this report')
  })
})

describe('the suite options `seed` and `resamples` reach the reported interval', () => {
  test('the delta is drawn with the seed and resamples given to the suite, and says so', async () => {
    const metas = await runAll(ingestionOrderAgent({ clock: () => new Date('2026-01-15T12:00:00Z') }), { seed: 7, resamples: 600 })
    const delta = summarizeTimeGrounded(JSON.parse(JSON.stringify(metas)) as TimeGroundedCaseRecord[]).suites[0]!.delta!
    expect(delta).toMatchObject({ seed: 7, resamples: 600, n: 12 })
    expect(renderTimeGroundedSummary(summarizeTimeGrounded(metas))).toContain('seed 7, 600 resamples')
  })

  test('too few resamples is refused when the suite is planned, not when the reporter prints', async () => {
    await expect(planTimeGroundedCases(honestAgent(), { resamples: 100 })).rejects.toMatchObject({ code: 'TIME_GROUNDED_OPTION_INVALID' })
  })
})

describe('one engine: the test runners and runProbeVersusControl run the same cases', () => {
  const MIXED = fileURLToPath(new URL('./fixtures/peer-mixed-gold.json', import.meta.url))
  /** Answers "No." to everything, and fails on one of the two entries the deterministic judge cannot grade. */
  const failingOnUngradable = (): TimeGroundedAgent => ({
    ...honestAgent(),
    name: 'failing',
    answer: (_question, context) => {
      if (context.questionId === 'pf-prospective-03') throw new Error('model down')
      return 'No.'
    },
  })

  test('a whole suite’s caveat counts the questions its rate rests on, as the comparison’s does (an error on an ungradable entry counts)', async () => {
    const metas = await runAll(failingOnUngradable(), { dataset: MIXED, unjudged: 'skip' })
    // Planned: six entries less the two the judge cannot grade.
    expect(metas[0]!.caveat).toMatch(/^Four questions is a probe/)
    const suite = summarizeTimeGrounded(metas).suites[0]!
    expect(suite.control).toMatchObject({ questions: 6, unjudged: 1, errors: 1, correct: 2 })
    expect(suite.caveat).toMatch(/^Five questions is a probe/)
    const comparison = await runProbeVersusControl(failingOnUngradable(), await loadGroundedDataset(MIXED), { judge: deterministicJudge(), unjudged: 'skip' })
    expect(comparison.control).toMatchObject({ questions: 6, unjudged: 1, agent_errors: 1, correct: 2 })
    expect(comparison.caveat).toMatch(/^Five questions is a probe/)
  })

  test('the ceiling’s records carry the reference reader’s notes; the summary keeps the agent’s own, the comparison each run’s', async () => {
    const metas = await runAll(honestAgent(), { dataset: MIXED, unjudged: 'skip', ceiling: true })
    const ceilingNotes = metas.filter((m) => m.run === 'ceiling').at(-1)!.notes!
    expect(ceilingNotes).toHaveLength(1)
    expect(ceilingNotes[0]).toMatch(/^agent "reference-reader" does not know question "pf-asof-01"/)
    const summary = summarizeTimeGrounded(metas).suites[0]!
    expect(summary.notes).toHaveLength(1)
    expect(summary.notes[0]).toMatch(/^agent "honest" does not know question "pf-asof-01"/)
    const comparison = await runProbeVersusControl(honestAgent(), await loadGroundedDataset(MIXED), {
      judge: deterministicJudge(),
      unjudged: 'skip',
      ceiling: true,
    })
    expect(comparison.ceiling?.notes).toEqual(ceilingNotes)
    expect(comparison.notes).toEqual(summary.notes)
  })
})
