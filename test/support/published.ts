// The figures upstream's harness publishes for its reference stores (spec section 6;
// upstream's reports/latest-test/report.json of MANMEET75/tivarq), pinned once here so
// every test that checks a run against them checks the same numbers. Not computed by
// this project's code: copied from upstream's published reports.
import { expect } from 'vitest'

/** `latest` (last write wins by arrival order) on the smoke split, structured track. */
export const PUBLISHED_LATEST_SMOKE = {
  probe_counts: { total: 60, answered: 54, unsupported: 6, error: 0 },
  metrics: {
    transition_success_rate: { score: 0.9, cases: 10 },
    current_state_accuracy: { score: 0.944444, cases: 54 },
    stale_value_leakage_rate: { score: 0.083333, cases: 12 },
    unaffected_fact_retention: { score: 1, cases: 13 },
  },
} as const

/** `latest` on the test split, structured track. */
export const PUBLISHED_LATEST_TEST = {
  probe_counts: { total: 900, answered: 810, unsupported: 90, error: 0 },
  metrics: {
    transition_success_rate: { score: 0.9, cases: 150 },
    current_state_accuracy: { score: 0.944444, cases: 810 },
    stale_value_leakage_rate: { score: 0.083333, cases: 180 },
    unaffected_fact_retention: { score: 1, cases: 195 },
  },
} as const

/** The headline metrics of a report (or of `computeMetrics`) equal the published ones. */
export function expectPublishedMetrics(metrics: object, published: { metrics: Record<string, unknown> }): void {
  for (const [name, figure] of Object.entries(published.metrics)) expect((metrics as Record<string, unknown>)[name], name).toEqual(figure)
}
