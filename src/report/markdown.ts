/** GitHub-flavoured Markdown renderings (for a job's step summary or a pull request). */
import type { TivarqReport } from '../tivarq/score.js'
import { describeBootstrap, formatCompleteness, formatCounts, formatDetection, formatInterval, formatRate, headlineMetrics } from './format.js'

function cell(text: string): string {
  return text.replace(/\|/g, '\\|')
}

/** A report as Markdown: headline table with denominators, the interval and its seed, family table, counts. */
export function renderMarkdown(report: TivarqReport, options: { title?: string } = {}): string {
  const m = report.metrics
  const lines = [`### ${options.title ?? 'TIVARQ report'}`, '', '| Metric | Score (cases) | Better |', '| --- | ---: | --- |']
  for (const h of headlineMetrics(report)) lines.push(`| ${h.label} | ${formatRate(h.rate)} | ${h.better} |`)
  lines.push(`| Clarification | ${cell(formatDetection(m.clarification))} | higher |`)
  lines.push(`| Abstention | ${cell(formatDetection(m.abstention))} | higher |`)
  lines.push('', `Transition success 95% CI ${formatInterval(report)} (${describeBootstrap(report)}).`, '')
  const families = Object.entries(report.by_family)
  if (families.length > 0) {
    lines.push('| Family | Probes | Answered | Transition success | Current-state acc. | Stale leakage ↓ | Retention |')
    lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
    for (const [family, slice] of families) {
      const fm = slice.metrics
      lines.push(
        `| ${cell(family)} | ${slice.probe_counts.total} | ${slice.probe_counts.answered} | ${formatRate(fm.transition_success_rate)} | ${formatRate(fm.current_state_accuracy)} | ${formatRate(fm.stale_value_leakage_rate)} | ${formatRate(fm.unaffected_fact_retention)} |`,
      )
    }
    lines.push('')
  }
  lines.push(`${formatCounts(report)} — ${formatCompleteness(report)}.`)
  return `${lines.join('\n')}\n`
}
