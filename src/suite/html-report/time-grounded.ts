/** The time-grounded part of the page: control, probe, ceiling, and the paired delta. Pure. */
import type { TimeGroundedArm, TimeGroundedPage } from '../../report/html/page-data.js'
import type { TimeGroundedRunScore, TimeGroundedSuiteSummary } from '../../timegrounded/cases.js'
import { CONTROL_MODE, PROBE_MODE } from '../../timegrounded/grounding.js'
import type { ProbeComparison } from '../../timegrounded/comparison.js'
import { DELTA_MEANING } from '../../timegrounded/delta.js'
import type { GroundedRunResult } from '../../timegrounded/run.js'

function arm(name: TimeGroundedArm['arm'], mode: string, score: TimeGroundedRunScore): TimeGroundedArm {
  // The page's count is what the rate rests on: questions the judge could not grade are in no rate.
  return { arm: name, mode, accuracy: score.accuracy, correct: score.correct, questions: score.questions - score.unjudged, errors: score.errors }
}

/** One suite as the page shows it. */
export function timeGroundedPage(suite: TimeGroundedSuiteSummary): TimeGroundedPage {
  const arms = [arm('control', CONTROL_MODE, suite.control), arm('probe', PROBE_MODE, suite.probe)]
  if (suite.ceiling !== null) arms.push(arm('ceiling', `${PROBE_MODE}, reference reader`, suite.ceiling))
  const delta = suite.delta
  return {
    suite: suite.suite,
    agent: suite.agent,
    dataset: suite.dataset_id,
    arms,
    delta,
    deltaNote:
      delta === null
        ? `Delta not computed: ${suite.control.questions} control and ${suite.probe.questions} probe results of ${suite.total} questions in this report.`
        : `${DELTA_MEANING}. Paired ${Math.round(delta.level * 100)}% bootstrap over ${delta.n} questions, ${delta.resamples} resamples, seed ${delta.seed}.`,
    verdict: suite.verdict?.text ?? null,
    caveat: suite.caveat,
  }
}

function runScore(run: GroundedRunResult): TimeGroundedRunScore {
  return { correct: run.correct, questions: run.questions, accuracy: run.accuracy, errors: run.agent_errors + run.judge_errors, unjudged: run.unjudged }
}

/** A `timegrounded probe` comparison as the suite summary the page reads (the same figures the Vitest reporter folds from its cases). */
export function comparisonSummary(comparison: ProbeComparison, datasetId: string, name = 'time-grounded'): TimeGroundedSuiteSummary {
  return {
    suite: name,
    agent: comparison.agent,
    dataset_id: datasetId,
    total: comparison.control.questions,
    control: runScore(comparison.control),
    probe: runScore(comparison.probe),
    ceiling: comparison.ceiling === null ? null : runScore(comparison.ceiling),
    delta: comparison.delta,
    verdict: comparison.verdict,
    caveat: comparison.caveat,
    notes: comparison.notes,
  }
}
