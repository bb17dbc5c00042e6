/**
 * The charts, drawn with Observable Plot as SVG. Every mark carries a class
 * (`tg-…`) and every element an aria-label naming its family, so a test (or
 * a screen reader) can count and name them. Colours are CSS variables, so the
 * charts follow the theme.
 */
import { cell, dot, plot, ruleX, ruleY, text } from '@observablehq/plot'
import type { Change, Comparison, FamilyChart, FamilyPoint, Spread, TimeGroundedPage } from '../page-data.js'
import { el, numbersTable, percent } from './dom.js'

const CHANGE_COLOUR: Record<Change, string> = { better: 'var(--better)', worse: 'var(--worse)', changed: 'var(--changed)', same: 'var(--panel-strong)' }
const CHANGE_MARK: Record<Change, string> = { better: '▲ better', worse: '▼ worse', changed: '◆ changed', same: '' }

function interval(low: number | null, high: number | null): string {
  return low === null || high === null ? 'no interval' : `95% interval ${percent(low)} – ${percent(high)}`
}

function describePoint(point: FamilyPoint): string {
  const run = point.value === null ? `no cases` : `${percent(point.value)} of ${point.cases}, ${interval(point.low, point.high)}`
  const baseline =
    point.baseline === null
      ? ''
      : `; baseline ${percent(point.baseline)} of ${point.baselineCases ?? 0}${point.change && point.change !== 'same' ? ` (${point.change})` : ''}`
  return `${point.family}: ${run}${baseline}`
}

/** Transition success or leakage per family: this run's value and 95% interval, the baseline beside it, moves marked at the right. */
export function familyChart(chart: FamilyChart, families: string[]): HTMLElement {
  const measured = chart.points.filter((p) => p.value !== null)
  const empty = chart.points.filter((p) => p.value === null)
  const withInterval = measured.filter((p) => p.low !== null && p.high !== null)
  const withBaseline = chart.points.filter((p) => p.baseline !== null)
  const moved = chart.points.filter((p) => p.change !== null && p.change !== 'same')
  const svg = plot({
    width: 560,
    height: 44 + families.length * 26,
    marginLeft: 118,
    marginRight: 92,
    ariaLabel: `${chart.label} per family`,
    x: { domain: [0, 1], grid: true, label: `${chart.label} (${chart.better} is better) →`, tickFormat: '.0%' },
    y: { domain: families, label: null },
    marks: [
      ruleY(withInterval, {
        y: 'family',
        x1: 'low',
        x2: 'high',
        dy: -3,
        stroke: 'var(--accent)',
        strokeWidth: 2.5,
        className: 'tg-interval',
        ariaLabel: 'family',
        ariaDescription: 'this run, 95% interval',
      }),
      dot(withBaseline, {
        y: 'family',
        x: 'baseline',
        dy: 6,
        r: 4,
        symbol: 'diamond',
        stroke: 'var(--baseline)',
        fill: 'var(--bg)',
        strokeWidth: 1.5,
        className: 'tg-baseline',
        ariaLabel: 'family',
        title: describePoint,
        ariaDescription: 'baseline',
      }),
      dot(measured, {
        y: 'family',
        x: 'value',
        dy: -3,
        r: 4.5,
        fill: (p: FamilyPoint) => (p.change === null || p.change === 'same' ? 'var(--accent)' : CHANGE_COLOUR[p.change]),
        className: 'tg-run',
        ariaLabel: 'family',
        title: describePoint,
        ariaDescription: 'this run',
      }),
      text(empty, {
        y: 'family',
        x: 0,
        text: () => 'no cases',
        textAnchor: 'start',
        dx: 4,
        fill: 'var(--muted)',
        className: 'tg-run-empty',
        ariaLabel: 'family',
        ariaDescription: 'no cases in this run',
      }),
      text(moved, {
        y: 'family',
        frameAnchor: 'right',
        text: (p: FamilyPoint) => CHANGE_MARK[p.change as Change],
        textAnchor: 'start',
        dx: 14,
        fill: (p: FamilyPoint) => CHANGE_COLOUR[p.change as Change],
        fontWeight: 'bold',
        className: 'tg-moved',
        ariaLabel: 'family',
      }),
    ],
  })
  const rows = chart.points.map((p) => [
    p.family,
    p.value === null ? '—' : percent(p.value),
    String(p.cases),
    interval(p.low, p.high),
    p.baseline === null ? '—' : percent(p.baseline),
    p.change ?? '—',
  ])
  return el(
    'figure',
    { class: 'chart', id: `tg-chart-${chart.key}`, 'data-chart': chart.key },
    el('figcaption', {}, `${chart.label} per family`),
    svg,
    numbersTable(`${chart.label}: the numbers`, ['family', 'this run', 'cases', 'interval', 'baseline', 'move'], rows),
  )
}

/** Every metric the baseline holds, overall and per family: a cell per pair, coloured by the move. */
export function comparisonChart(comparison: Comparison): HTMLElement {
  const svg = plot({
    width: Math.max(640, 176 + comparison.columns.length * 58),
    height: 70 + comparison.metrics.length * 26,
    marginLeft: 176,
    marginTop: 64,
    ariaLabel: 'Baseline against this run, per metric and family',
    x: { domain: comparison.columns, axis: 'top', label: null, tickRotate: -35 },
    y: { domain: comparison.metrics, label: null },
    marks: [
      cell(comparison.cells, {
        x: 'column',
        y: 'metric',
        fill: (c: { change: Change }) => CHANGE_COLOUR[c.change],
        inset: 1,
        className: 'tg-comparison-cell',
        ariaLabel: (c: { metric: string; column: string }) => `${c.metric} ${c.column}`,
        title: (c: Comparison['cells'][number]) =>
          `${c.metric}, ${c.column}: baseline ${percent(c.before)} (${c.beforeCases}) → this run ${percent(c.after)} (${c.afterCases})${c.change === 'same' ? '' : `: ${c.change}`}`,
      }),
      text(comparison.cells, {
        x: 'column',
        y: 'metric',
        text: 'text',
        fill: (c: { change: Change }) => (c.change === 'same' ? 'currentColor' : 'var(--on-change)'),
        fontSize: 10,
      }),
    ],
  })
  return el(
    'figure',
    { class: 'chart wide', id: 'tg-chart-comparison' },
    el('figcaption', {}, 'Baseline → this run, every metric and family (cell: this run’s value; colour: the move)'),
    el('div', { class: 'scroll' }, svg),
    el('p', { class: 'muted' }, comparison.summary),
    numbersTable(
      'Every pair: the numbers',
      ['metric', 'family', 'baseline', 'this run', 'move'],
      comparison.cells.map((c) => [c.metric, c.column, `${percent(c.before)} (${c.beforeCases})`, `${percent(c.after)} (${c.afterCases})`, c.change]),
    ),
  )
}

/** Transition success of every repetition per family, and the range they span. */
export function spreadChart(spread: Spread, families: string[]): HTMLElement {
  const svg = plot({
    width: 560,
    height: 44 + families.length * 24,
    marginLeft: 118,
    ariaLabel: 'Transition success per family over repetitions',
    x: { domain: [0, 1], grid: true, label: `Transition success, ${spread.repetitions} repetitions →`, tickFormat: '.0%' },
    y: { domain: families, label: null },
    marks: [
      ruleY(spread.ranges, {
        y: 'family',
        x1: 'min',
        x2: 'max',
        stroke: 'var(--muted)',
        strokeWidth: 7,
        strokeOpacity: 0.35,
        strokeLinecap: 'round',
        className: 'tg-spread',
        ariaLabel: 'family',
        title: (r: Spread['ranges'][number]) => `${r.family}: ${percent(r.min)} – ${percent(r.max)}`,
      }),
      dot(spread.points, {
        y: 'family',
        x: 'value',
        r: 3,
        fill: 'var(--accent)',
        className: 'tg-repetition',
        ariaLabel: 'family',
        title: (p: Spread['points'][number]) => `${p.family}, repetition ${p.repetition}: ${percent(p.value)}`,
      }),
    ],
  })
  return el(
    'figure',
    { class: 'chart', id: 'tg-chart-spread' },
    el('figcaption', {}, 'Spread over repetitions'),
    el('ul', { class: 'plain' }, ...spread.lines.map((line) => el('li', {}, line))),
    svg,
  )
}

/** Control, probe and ceiling accuracy, and the paired delta with its interval. */
export function timeGroundedChart(suite: TimeGroundedPage): HTMLElement {
  const arms = plot({
    width: 560,
    height: 40 + suite.arms.length * 30,
    marginLeft: 80,
    marginRight: 60,
    ariaLabel: `${suite.suite}: accuracy of control, probe and ceiling`,
    x: { domain: [0, 1], grid: true, label: 'Accuracy →', tickFormat: '.0%' },
    y: { domain: suite.arms.map((a) => a.arm), label: null },
    marks: [
      ruleY(suite.arms, { y: 'arm', x1: 0, x2: (a: { accuracy: number | null }) => a.accuracy ?? 0, stroke: 'var(--grid)', strokeWidth: 6 }),
      dot(suite.arms, {
        y: 'arm',
        x: (a: { accuracy: number | null }) => a.accuracy ?? 0,
        r: 5,
        fill: 'var(--accent)',
        className: 'tg-arm',
        ariaLabel: 'arm',
        title: (a: { arm: string; mode: string; correct: number; questions: number; errors: number }) =>
          `${a.arm} (${a.mode}): ${a.correct} of ${a.questions}${a.errors > 0 ? `, ${a.errors} errors` : ''}`,
      }),
      text(suite.arms, {
        y: 'arm',
        frameAnchor: 'right',
        text: (a: { correct: number; questions: number }) => `${a.correct}/${a.questions}`,
        textAnchor: 'start',
        dx: 8,
        fill: 'currentColor',
      }),
    ],
  })
  const parts: (HTMLElement | SVGElement)[] = [el('figcaption', {}, `${suite.suite}: ${suite.agent} on ${suite.dataset}`), arms as unknown as SVGElement]
  const d = suite.delta
  if (d !== null && d.value !== null) {
    const lo = Math.min(-0.1, d.low ?? d.value, d.value) - 0.05
    const hi = Math.max(0.1, d.high ?? d.value, d.value) + 0.05
    parts.push(
      plot({
        width: 560,
        height: 74,
        marginLeft: 80,
        marginRight: 60,
        ariaLabel: `${suite.suite}: probe minus control, with its paired ${Math.round(d.level * 100)}% interval`,
        x: { domain: [lo, hi], label: `probe − control (paired ${Math.round(d.level * 100)}% interval, ${d.n} questions) →`, tickFormat: '+.0%' },
        y: { domain: ['delta'], label: null },
        marks: [
          ruleX([0], { stroke: 'var(--muted)', strokeDasharray: '3,3' }),
          ruleY(d.low !== null && d.high !== null ? [d] : [], {
            y: () => 'delta',
            x1: 'low',
            x2: 'high',
            stroke: 'var(--worse)',
            strokeWidth: 2.5,
            className: 'tg-delta-interval',
          }),
          dot([d], {
            y: () => 'delta',
            x: 'value',
            r: 5,
            fill: 'var(--worse)',
            className: 'tg-delta',
            ariaLabel: () => 'delta',
            title: () => `delta ${percent(d.value)}, ${interval(d.low, d.high)}, seed ${d.seed}, ${d.resamples} resamples`,
          }),
        ],
      }) as unknown as SVGElement,
    )
  }
  parts.push(el('p', { class: 'muted' }, suite.deltaNote))
  if (suite.verdict !== null) parts.push(el('p', { class: 'verdict' }, suite.verdict))
  parts.push(el('p', { class: 'muted' }, suite.caveat))
  return el('figure', { class: 'chart', 'data-suite': suite.suite }, ...parts)
}
