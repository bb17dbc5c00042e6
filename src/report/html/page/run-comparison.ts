/**
 * The page of two runs compared: both runs' figures side by side with the
 * paired difference and its verdict, each metric's per-family differences
 * with their intervals, and the probes B fixed or broke, each opening
 * (Enter or Space on its id) into its episode's timeline with both answers.
 */
import { dot, plot, ruleX, ruleY } from '@observablehq/plot'
import type { ChangedProbe, ComparedCard, ComparedVerdict, DifferenceChart, DifferencePoint, RunComparisonPage } from '../page-data.js'
import { el, numbersTable, section } from './dom.js'
import { timelineRow } from './timeline-row.js'

const VERDICT_CLASS: Record<ComparedVerdict, string> = {
  better: 'change-better',
  worse: 'change-worse',
  'no-difference': 'change-same',
  'not-measured': 'change-same',
  'too-few-episodes': 'change-same',
}

function card(item: ComparedCard, page: RunComparisonPage): HTMLElement {
  return el(
    'div',
    { class: 'card compared', role: 'group', 'aria-label': item.label, 'data-verdict': item.verdict },
    el('span', { class: 'card-label' }, item.label),
    el('span', { class: 'card-direction' }, `${item.better === 'higher' ? '↑' : '↓'} ${item.better} is better`),
    el('span', { class: 'card-detail side-a' }, `A ${page.a}: `, el('strong', {}, item.a)),
    el('span', { class: 'card-detail side-b' }, `B ${page.b}: `, el('strong', {}, item.b)),
    el('span', { class: 'card-value' }, `B − A ${item.difference}`),
    el('span', { class: 'card-interval' }, item.interval),
    el('span', { class: `card-baseline verdict ${VERDICT_CLASS[item.verdict]}` }, item.verdictLine),
  )
}

function headline(page: RunComparisonPage): HTMLElement {
  return section(
    'tg-compare-headline',
    'A and B side by side',
    el('p', { class: 'status complete', role: 'status' }, page.mcnemar),
    el('div', { class: 'cards' }, ...page.cards.map((item) => card(item, page))),
    el('p', { class: 'muted' }, page.intervalNote),
  )
}

function pointColour(point: DifferencePoint): string {
  return point.verdict === 'better' ? 'var(--better)' : point.verdict === 'worse' ? 'var(--worse)' : 'var(--accent)'
}

/** One metric's B − A per family, with the paired interval of each, 0 marked. */
function differenceChart(chart: DifferenceChart, families: string[]): HTMLElement {
  const measured = chart.points.filter((p) => p.difference !== null)
  const withInterval = measured.filter((p) => p.low !== null && p.high !== null)
  const svg = plot({
    width: 560,
    height: 44 + families.length * 26,
    marginLeft: 118,
    marginRight: 24,
    ariaLabel: `${chart.label}: B − A per family`,
    x: { domain: [-1, 1], grid: true, label: `B − A (${chart.better} is better) →`, tickFormat: '+.0%' },
    y: { domain: families, label: null },
    marks: [
      ruleX([0], { stroke: 'var(--muted)' }),
      ruleY(withInterval, {
        y: 'family',
        x1: 'low',
        x2: 'high',
        stroke: 'var(--accent)',
        strokeWidth: 2.5,
        className: 'tg-difference-interval',
        ariaLabel: 'family',
      }),
      dot(measured, {
        y: 'family',
        x: 'difference',
        r: 4.5,
        fill: pointColour,
        className: 'tg-difference',
        ariaLabel: 'family',
        title: 'text',
      }),
    ],
  })
  return el(
    'figure',
    { class: 'chart', 'data-metric': chart.metric },
    el('figcaption', {}, `${chart.label}: B − A per family`),
    svg,
    numbersTable(
      'Every family: the numbers',
      ['family', 'B − A, counts and interval'],
      chart.points.map((p) => [p.family, p.text]),
    ),
  )
}

function changeRow(changed: ChangedProbe, page: RunComparisonPage): HTMLTableRowElement[] {
  const probe = changed.view
  const badge = el('span', { class: `badge ${changed.change === 'fixed' ? 'change-better' : 'change-worse'}` }, changed.change)
  const { row, detail } = timelineRow(
    probe,
    page.episodes[probe.episode],
    { 'data-probe': probe.id, 'data-change': changed.change, 'data-family': probe.family },
    [
      el('td', {}, probe.family),
      el('td', {}, badge),
      el('td', {}, probe.question ?? '—'),
      el('td', {}, el('code', {}, probe.expected)),
      el('td', {}, el('code', {}, changed.answerA)),
      el('td', {}, el('code', {}, changed.answerB)),
    ],
  )
  return [row, detail]
}

function changesSection(page: RunComparisonPage): HTMLElement {
  if (page.changes.length === 0) return section('tg-changes', 'Fixed and broken probes', el('p', { class: 'muted' }, 'B fixed no probe and broke none.'))
  const broken = page.changes.filter((c) => c.change === 'broken').length
  return section(
    'tg-changes',
    'Fixed and broken probes',
    el(
      'p',
      {},
      `${page.changes.length - broken} fixed by B, ${broken} broken by B (broken first). Open a probe (Enter or Space on its id) to see its episode as a timeline, with both stores’ answers.`,
    ),
    page.timelineNote && el('p', { class: 'muted', id: 'tg-timeline-note' }, page.timelineNote),
    el(
      'table',
      { id: 'tg-changes-table' },
      el(
        'thead',
        {},
        el('tr', {}, ...['probe', 'family', 'change', 'question', 'expected', 'A answered', 'B answered'].map((h) => el('th', { scope: 'col' }, h))),
      ),
      el('tbody', {}, ...page.changes.flatMap((changed) => changeRow(changed, page))),
    ),
  )
}

/** The sections of the page, in order. */
export function runComparisonSections(page: RunComparisonPage): HTMLElement[] {
  return [
    headline(page),
    section('tg-compare-families', 'Per family: B − A', el('div', { class: 'charts' }, ...page.charts.map((chart) => differenceChart(chart, page.families)))),
    changesSection(page),
  ]
}
