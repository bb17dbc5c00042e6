/**
 * A comparison in words: the terminal report of `timegrounded compare`, its
 * verdict lines, and the record `--json` prints. Every figure travels with
 * its counts, every interval with how it was drawn. Pure.
 */
import { metricSpec } from '../../tivarq/metrics.js'
import { roundHalfEven } from '../../stats/quantile.js'
import { canonicalJsonLine } from '../../tivarq/canonical-json.js'
import type { Answer } from '../../tivarq/schema.js'
import { MIN_NOISE_EPISODES } from '../../suite/noise.js'
import { renderTable } from '../table.js'
import type { MetricComparison, McNemarComparison, ProbeChange, RunComparison } from './compare-runs.js'

/** A signed figure to 3 decimals, with a real minus sign: `−0.021`, `0.034`. */
function signed(value: number): string {
  const text = Math.abs(value).toFixed(3)
  return value < 0 && text !== '0.000' ? `−${text}` : text
}

function percent(level: number): string {
  return `${roundHalfEven(level * 100, 2)}%`
}

function figure(value: number | null, numerator: number, denominator: number): string {
  return value === null ? `— (0 cases)` : `${roundHalfEven(value, 6)} (${numerator} of ${denominator})`
}

function interval(comparison: MetricComparison): string {
  return comparison.low === null || comparison.high === null ? '—' : `${signed(comparison.low)} to ${signed(comparison.high)}`
}

/** What the numbers show for one metric, and no more. */
export function verdictLine(comparison: MetricComparison): string {
  const label = metricSpec(comparison.metric).label
  const where = comparison.family === null ? '' : ` in ${comparison.family}`
  const difference = comparison.difference === null ? '' : `B − A = ${signed(comparison.difference)}, `
  switch (comparison.verdict) {
    case 'better':
      return `${label}${where}: B better (${difference}interval ${interval(comparison)})`
    case 'worse':
      return `${label}${where}: B worse (${difference}interval ${interval(comparison)})`
    case 'no-difference':
      return `${label}${where}: no difference shown (interval ${interval(comparison)})`
    case 'not-measured':
      return `${label}${where}: not compared (no cases in ${comparison.a.value === null ? 'A' : 'B'})`
    case 'too-few-episodes':
      return `${label}${where}: not judged, ${comparison.episodes} episodes carry it (fewer than ${MIN_NOISE_EPISODES} measure its spread too loosely; interval ${interval(comparison)}); its probes still count in the McNemar tests`
  }
}

const VERDICT_CELLS: Record<MetricComparison['verdict'], string> = {
  better: 'B better',
  worse: 'B worse',
  'no-difference': 'no difference shown',
  'not-measured': 'not compared',
  'too-few-episodes': 'too few episodes',
}

function metricRows(comparisons: readonly MetricComparison[]): string[][] {
  return comparisons.map((c) => {
    const spec = metricSpec(c.metric)
    return [
      spec.better === 'lower' ? `${spec.label} ↓` : spec.label,
      figure(c.a.value, c.a.numerator, c.a.denominator),
      figure(c.b.value, c.b.numerator, c.b.denominator),
      c.difference === null ? '—' : signed(c.difference),
      interval(c),
      VERDICT_CELLS[c.verdict],
    ]
  })
}

function describeTest(test: McNemarComparison): string {
  const p = test.pValue >= 0.001 ? String(roundHalfEven(test.pValue, 4)) : test.pValue.toExponential(1)
  return `p = ${p}${test.shown ? ' < ' : ' ≥ '}${Number(test.alpha.toPrecision(2))}`
}

function answerText(answer: Answer | null): string {
  if (answer === null) return 'error'
  return answer.state === 'known' ? canonicalJsonLine(answer.value ?? null) : answer.state
}

function changeLine(change: ProbeChange, repetitions: number): string {
  const counts = repetitions > 1 ? ` (right ${change.a.right}/${change.a.asked} → ${change.b.right}/${change.b.asked})` : ''
  return `  ${change.probeId} (${change.family}): expected ${answerText(change.expected)}; A ${answerText(change.a.answer)}, B ${answerText(change.b.answer)}${counts}`
}

function changeList(title: string, changes: readonly ProbeChange[], repetitions: number, limit: number): string[] {
  if (changes.length === 0) return []
  const shown = changes.slice(0, limit).map((change) => changeLine(change, repetitions))
  const more = changes.length > limit ? [`  … and ${changes.length - limit} more (--json lists them all)`] : []
  return [`${title} (${changes.length}):`, ...shown, ...more]
}

function identityLine(comparison: RunComparison): string {
  const { datasetHash, split, track, variant } = comparison.identity
  const known = [
    split === null ? null : `split ${split}`,
    track === null ? null : `track ${track}`,
    variant,
    datasetHash === null ? null : `dataset ${datasetHash}`,
  ].filter((part) => part !== null)
  return `Same data: ${known.length === 0 ? 'no manifest on either side; ' : `${known.join(', ')}; `}the same ${comparison.a.probeCounts[0]?.total ?? 0} probes with the same gold on both sides`
}

function sideLine(letter: string, side: RunComparison['a']): string {
  const errors = side.errors === 0 ? '' : `; ${side.errors} error rows (an error is never a right answer; the rates leave them out, as report.json does)`
  return `${letter}: ${side.name} (${side.repetitions} ${side.repetitions === 1 ? 'repetition' : 'repetitions'}${errors})`
}

/** The terminal report of a comparison. */
export function renderComparison(comparison: RunComparison, options: { color?: boolean; limit?: number } = {}): string {
  const { probes } = comparison
  const limit = options.limit ?? 20
  const k = comparison.metrics.length
  const first = comparison.metrics[0]!
  const head = ['Metric', 'A', 'B', 'B − A', `${percent(comparison.metricLevel)} interval`, 'Verdict']
  const lines = [
    'timegrounded compare: is B better than A?',
    sideLine('A', comparison.a),
    sideLine('B', comparison.b),
    identityLine(comparison),
    '',
    renderTable({ head, rows: metricRows(comparison.metrics), align: ['left', 'right', 'right', 'right', 'right', 'left'], color: options.color }),
    `Paired bootstrap over the episodes carrying each metric (${comparison.metrics[0]?.episodes ?? 0} for ${metricSpec(comparison.metrics[0]!.metric).label.toLowerCase()}; the same episodes resampled for A and B, each with all its repetitions), ${comparison.resamples} resamples, seed ${comparison.seed} (seedrandom's ${comparison.generator} stream); each interval two-sided at ${percent(comparison.metricLevel)} so that the ${k} together hold ${percent(comparison.confidence)} (Bonferroni, as the gate).`,
    '',
    ...comparison.metrics.map(verdictLine),
    '',
    `Probes: B fixed ${probes.fixed.length} and broke ${probes.broken.length} of ${probes.fixed.length + probes.broken.length + probes.mcnemar.concordant} compared${probes.unsupported === 0 ? '' : ` (${probes.unsupported} unsupported on a side, left out)`}${comparison.a.repetitions > 1 || comparison.b.repetitions > 1 ? `, each by its right answers over the first ${probes.repetitionsCompared} repetitions of each side` : ''}. McNemar exact test: ${describeTest(probes.mcnemar)}, ${probes.mcnemar.shown ? 'more unequal than chance gives' : 'within what chance gives'}.`,
    '',
    renderTable({
      head: ['Family', `${metricSpec(first.metric).label}: A`, 'B', 'B − A [interval]', 'Fixed', 'Broken', 'McNemar'],
      rows: comparison.families.map((family) => {
        const c = family.metrics[0]!
        return [
          family.family,
          figure(c.a.value, c.a.numerator, c.a.denominator),
          figure(c.b.value, c.b.numerator, c.b.denominator),
          c.difference === null ? '—' : `${signed(c.difference)} [${interval(c)}]`,
          String(family.mcnemar.fixed),
          String(family.mcnemar.broken),
          describeTest(family.mcnemar),
        ]
      }),
      align: ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
      color: options.color,
    }),
    `Each family's McNemar test at ${percent(1 - comparison.confidence)}/${comparison.families.length} (Bonferroni over the families compared). The families' intervals (every metric's in \`--json\`) locate a difference; the verdicts are the overall ones.`,
    ...(probes.fixed.length + probes.broken.length > 0 ? [''] : []),
    ...changeList('Fixed by B', probes.fixed, probes.repetitionsCompared, limit),
    ...changeList('Broken by B', probes.broken, probes.repetitionsCompared, limit),
  ]
  return lines.join('\n')
}

/** The comparison as `--json` prints it: everything but the per-repetition reports, of which each side keeps its probe counts and completeness. */
export function comparisonRecord(comparison: RunComparison): unknown {
  // Field by field: spreading the side would read its reports, which are scored only when read.
  const side = ({ name, repetitions, errors, complete, probeCounts }: RunComparison['a']) => ({
    name,
    repetitions,
    errors,
    complete,
    probe_counts: probeCounts,
  })
  return { ...comparison, a: side(comparison.a), b: side(comparison.b), verdicts: comparison.metrics.map(verdictLine) }
}
