/**
 * The page of two runs compared (`timegrounded compare --html`): the view
 * model of a `RunComparison`, every figure and sentence from it (the verdict
 * lines are the terminal report's own), and the episodes of the probes B
 * fixed or broke, drawn from the split the runs asked. Pure.
 */
import type { MetricComparison, ProbeChange, RunComparison } from '../../compare/compare-runs.js'
import { verdictLine } from '../../compare/render.js'
import { metricSpec } from '../../../tivarq/metrics.js'
import { bundledTimelineSplit } from '../../../tivarq/bundled-dataset.js'
import type { PredictionRow } from '../../../tivarq/results.js'
import type { Episode, Probe } from '../../../tivarq/schema.js'
import { SPLITS, type Split } from '../../../tivarq/vocabulary.js'
import { formatAnswer } from '../../../suite/messages.js'
import { HARNESS_VERSION } from '../../../version.js'
import type { ChangedProbe, ComparedCard, DifferenceChart, EpisodeView, PageData, RunComparisonPage } from '../page-data.js'
import { answerSources, episodeView } from './failing.js'
import { matchedTimelines } from './timelines.js'

/** The episodes and probes the changed probes' timelines come from, or why there are none. */
export interface ComparisonTimelines {
  episodes: readonly Episode[]
  probes: readonly Probe[]
  note?: string
}

function signed(value: number): string {
  const text = Math.abs(value).toFixed(3)
  return value < 0 && text !== '0.000' ? `−${text}` : value > 0 ? `+${text}` : text
}

function figure(side: MetricComparison['a']): string {
  return side.value === null ? 'no cases' : `${(side.value * 100).toFixed(1)}% (${side.numerator} of ${side.denominator})`
}

function intervalText(metric: MetricComparison, level: number): string {
  if (metric.low === null || metric.high === null) return 'no interval: a side has no cases'
  return `${signed(metric.low)} to ${signed(metric.high)} (paired, ${Number((level * 100).toFixed(2))}%, ${metric.episodes} episodes)`
}

function card(metric: MetricComparison, level: number): ComparedCard {
  const spec = metricSpec(metric.metric)
  return {
    label: spec.label,
    better: spec.better,
    a: figure(metric.a),
    b: figure(metric.b),
    difference: metric.difference === null ? '—' : signed(metric.difference),
    interval: intervalText(metric, level),
    verdict: metric.verdict,
    verdictLine: verdictLine(metric),
  }
}

/** Each judged metric's per-family differences, for the metrics some family measured. */
function charts(comparison: RunComparison): DifferenceChart[] {
  return comparison.metrics.flatMap((overall) => {
    const spec = metricSpec(overall.metric)
    const points = comparison.families.map((family) => {
      const metric = family.metrics.find((entry) => entry.metric === overall.metric)!
      const counts = `${metric.a.numerator} of ${metric.a.denominator} → ${metric.b.numerator} of ${metric.b.denominator}`
      const text =
        metric.difference === null
          ? `${family.family}: not compared (${counts})`
          : `${family.family}: B − A = ${signed(metric.difference)} (${counts}), interval ${metric.low === null ? '—' : `${signed(metric.low)} to ${signed(metric.high!)}`}`
      return { family: family.family, difference: metric.difference, low: metric.low, high: metric.high, verdict: metric.verdict, text }
    })
    if (points.every((point) => point.difference === null)) return []
    return [{ metric: overall.metric, label: spec.label, better: spec.better, points }]
  })
}

function answerText(answer: ProbeChange['a']['answer']): string {
  return answer === null ? 'error' : formatAnswer(answer)
}

function rights(change: ProbeChange, repetitions: number): string {
  return repetitions > 1 ? ` (right ${change.a.right}/${change.a.asked} → ${change.b.right}/${change.b.asked})` : ''
}

function changedProbe(
  change: ProbeChange,
  kind: ChangedProbe['change'],
  repetitions: number,
  probes: ReadonlyMap<string, Probe>,
  episodes: ReadonlyMap<string, Episode>,
): ChangedProbe {
  const probe = probes.get(change.probeId)
  const episode = episodes.get(change.episodeId)
  const answerA = answerText(change.a.answer)
  const answerB = answerText(change.b.answer)
  // The timeline marks the events carrying the value of the side that was wrong: where its answer came from.
  const wrong = kind === 'fixed' ? change.a.answer : change.b.answer
  return {
    change: kind,
    answerA,
    answerB,
    view: {
      id: change.probeId,
      episode: change.episodeId,
      family: change.family,
      kind: 'wrong',
      outcome: 'wrong',
      role: probe?.role ?? '—',
      phase: probe?.phase ?? '—',
      capability: probe?.capability ?? '—',
      question: probe?.question ?? null,
      asOf: probe?.as_of ?? null,
      afterEvent: probe?.after_event_index ?? null,
      expected: formatAnswer(change.expected),
      answer: `A: ${answerA} · B: ${answerB}`,
      meaning: `${kind === 'fixed' ? 'fixed by B: A was wrong, B right' : 'broken by B: A was right, B wrong'}${rights(change, repetitions)}; marked events carry ${kind === 'fixed' ? 'A' : 'B'}’s wrong value`,
      sources: answerSources(wrong, probe, episode),
    },
  }
}

function mcnemarWords(comparison: RunComparison): string {
  const { fixed, broken, mcnemar, unsupported } = comparison.probes
  const p = mcnemar.pValue >= 0.001 ? String(Number(mcnemar.pValue.toFixed(4))) : mcnemar.pValue.toExponential(1)
  const left = unsupported === 0 ? '' : ` (${unsupported} unsupported on a side, left out)`
  return `B fixed ${fixed.length} and broke ${broken.length} of ${fixed.length + broken.length + mcnemar.concordant} probes compared${left}. McNemar's exact test: p = ${p} ${mcnemar.shown ? '<' : '≥'} ${Number(mcnemar.alpha.toPrecision(2))}, ${mcnemar.shown ? 'more unequal than chance gives' : 'within what chance gives'}; each family's test at ${Number(((1 - comparison.confidence) * 100).toPrecision(2))}%/${comparison.families.length} (Bonferroni).`
}

/** The comparison part of the page. */
export function runComparisonPage(comparison: RunComparison, timelines: ComparisonTimelines): RunComparisonPage {
  const probes = new Map(timelines.probes.map((probe) => [probe.probe_id, probe]))
  const episodes = new Map(timelines.episodes.map((episode) => [episode.episode_id, episode]))
  const repetitions = comparison.probes.repetitionsCompared
  const changes = [
    ...comparison.probes.broken.map((change) => changedProbe(change, 'broken', repetitions, probes, episodes)),
    ...comparison.probes.fixed.map((change) => changedProbe(change, 'fixed', repetitions, probes, episodes)),
  ]
  const views: Record<string, EpisodeView> = {}
  for (const { view } of changes) {
    const episode = episodes.get(view.episode)
    if (episode !== undefined && views[view.episode] === undefined) views[view.episode] = episodeView(episode)
  }
  const missing = changes.filter(({ view }) => views[view.episode] === undefined).length
  const k = comparison.metrics.length
  return {
    a: comparison.a.name,
    b: comparison.b.name,
    intervalNote: `Each difference is B − A with a paired bootstrap interval: the same episodes resampled for A and B, each with all its repetitions; ${comparison.resamples} resamples, seed ${comparison.seed} (seedrandom's ${comparison.generator} stream); each interval two-sided at ${Number((comparison.metricLevel * 100).toFixed(2))}% so that the ${k} together hold ${comparison.confidence * 100}% (Bonferroni, as the gate). The family intervals locate a difference; the verdicts are the overall ones.`,
    cards: comparison.metrics.map((metric) => card(metric, comparison.metricLevel)),
    families: comparison.families.map((family) => family.family),
    charts: charts(comparison),
    mcnemar: mcnemarWords(comparison),
    changes,
    episodes: views,
    timelineNote:
      missing === 0
        ? null
        : `${missing} changed ${missing === 1 ? 'probe has' : 'probes have'} no timeline: ${timelines.note ?? 'its episode is not in the data given to the page'}.`,
  }
}

/** The whole page of a comparison. */
export function comparisonPageData(comparison: RunComparison, timelines: ComparisonTimelines, title: string): PageData {
  const { datasetHash, split, track, variant } = comparison.identity
  const data = [split === null ? null : `${split} split`, track === null ? null : `${track} track`, variant].filter((part) => part !== null).join(', ')
  const identity: PageData['identity'] = [
    { label: 'A', value: `${comparison.a.name} (${comparison.a.repetitions} ${comparison.a.repetitions === 1 ? 'repetition' : 'repetitions'})` },
    { label: 'B', value: `${comparison.b.name} (${comparison.b.repetitions} ${comparison.b.repetitions === 1 ? 'repetition' : 'repetitions'})` },
    ...(data === '' ? [] : [{ label: 'data', value: data, ...(datasetHash === null ? {} : { title: datasetHash }) }]),
    { label: 'seed', value: String(comparison.seed) },
    { label: 'resamples', value: String(comparison.resamples) },
    { label: 'harness', value: `timegrounded ${HARNESS_VERSION}` },
  ]
  return { title, harnessVersion: HARNESS_VERSION, identity, tivarq: null, timeGrounded: [], runComparison: runComparisonPage(comparison, timelines) }
}

/**
 * The timelines of a comparison's changed probes, from the bundled TIVARQ v1
 * data: the split the manifests name, else the one holding the runs' first
 * probe; used only when every row's probe is the same probe there
 * (`matchedTimelines`), so a variant's probes are never drawn from v1.
 */
export function bundledComparisonTimelines(comparison: RunComparison, rows: readonly PredictionRow[]): ComparisonTimelines {
  const wanted = new Set([...comparison.probes.fixed, ...comparison.probes.broken].map((change) => change.episodeId))
  const named = comparison.identity.split
  const candidates: readonly Split[] = named !== null && (SPLITS as readonly string[]).includes(named) ? [named as Split] : [...SPLITS].reverse()
  const first = rows[0]?.probe_id
  for (const split of candidates) {
    const data = bundledTimelineSplit(split, wanted)
    if (data === null || (named === null && !data.probes.some((probe) => probe.probe_id === first))) continue
    return matchedTimelines(rows, data, `the bundled TIVARQ v1 ${split} split`)
  }
  return { episodes: [], probes: [], note: 'the runs are of no split of the bundled TIVARQ v1 data' }
}
