/** The time-grounded part of the page: control, probe, ceiling, and the paired delta. Pure. */
import type { TimeGroundedArm, TimeGroundedPage } from '../page-data.js'
import { CONTROL_MODE, PROBE_MODE } from '../../../time-grounded/grounding.js'
import { DELTA_MEANING } from '../../../time-grounded/delta.js'
import type { TimeGroundedRunScore, TimeGroundedSuiteSummary } from '../../../time-grounded/summary.js'

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
