/**
 * The report page's script: reads the JSON the renderer embedded and lays out
 * the page. Bundled with Observable Plot into one script at build time
 * (scripts/build-report-page.js); it fetches nothing.
 */
import type { PageData } from '../page-data.js'
import { comparisonChart, familyChart, spreadChart, timeGroundedChart } from './charts.js'
import { byId, el, section } from './dom.js'
import { headlineSection, renderIdentity } from './headline.js'
import { failingSection } from './probes.js'
import { runComparisonSections } from './run-comparison.js'
import { setUpTheme } from './theme.js'

function tivarqSections(page: NonNullable<PageData['tivarq']>): HTMLElement[] {
  const sections = [
    headlineSection(page),
    section(
      'tg-families',
      'Per family',
      el(
        'p',
        { class: 'legend muted' },
        ...['● this run, with its 95% interval', '◇ baseline', '▲ better, ▼ worse, ◆ changed since the baseline'].map((item) => el('span', {}, item)),
      ),
      el('div', { class: 'charts' }, ...page.familyCharts.map((chart) => familyChart(chart, page.families))),
      el('p', { class: 'muted' }, page.intervalNote),
    ),
    section(
      'tg-baseline',
      'Baseline and this run',
      page.comparison === null ? el('p', { class: 'muted' }, page.comparisonNote) : comparisonChart(page.comparison),
    ),
  ]
  if (page.spread !== null) sections.push(section('tg-spread', 'Repetitions', spreadChart(page.spread, page.families)))
  return sections
}

function main(): void {
  const data = JSON.parse(byId('tg-data').textContent ?? 'null') as PageData
  setUpTheme()
  renderIdentity(data)
  const sections: HTMLElement[] = data.tivarq === null ? [] : tivarqSections(data.tivarq)
  if (data.runComparison !== undefined) sections.push(...runComparisonSections(data.runComparison))
  if (data.timeGrounded.length > 0) sections.push(section('tg-time-grounded', 'Time-grounded probe', ...data.timeGrounded.map(timeGroundedChart)))
  // Last: the long table.
  if (data.tivarq !== null) sections.push(failingSection(data.tivarq))
  const nav = el('nav', { 'aria-label': 'Sections' }, ...sections.map((s) => el('a', { href: `#${s.id}` }, s.querySelector('h2')?.textContent ?? s.id)))
  byId('tg-main').append(nav, ...sections)
  document.body.dataset.ready = 'true'
}

main()
