/**
 * The failing probes of a run, each with what was expected, what the store
 * said, what that means, and the episode it belongs to (once per episode).
 * Every judgement is the scorer's (`classifyRow`) or the failure messages'
 * (`diagnose`): nothing is scored here. Pure.
 */
import { type EpisodeView, type EventView, FAILURE_KINDS, type FailingProbe, type FailureKind } from '../page-data.js'
import type { PredictionRow } from '../../../tivarq/results.js'
import type { Answer, AnswerValue, Assertion, Episode, Probe } from '../../../tivarq/schema.js'
import { classifyRow } from '../../../tivarq/row-verdicts.js'
import type { BaselineSuite } from '../../../suite/baseline.js'
import { diagnose, formatAnswer, renderDiagnosis } from '../../../suite/messages.js'
import type { ProbeDecision } from '../../../suite/records.js'

/** What the store said in its own words is kept to this many characters on the page. @default 160 */
const RAW_ANSWER_CHARS = 160

/** The failing probes, the episodes they belong to, counts by kind, and how many passed. */
export interface FailingProbes {
  failing: FailingProbe[]
  episodes: Record<string, EpisodeView>
  kindCounts: Record<FailureKind, number>
  passed: number
}

/** What a failing probe's row, its known-failure status and the split say about it. */
interface Sources {
  probes: ReadonlyMap<string, Probe>
  episodes: ReadonlyMap<string, Episode>
  /** A probe whose wrong answer is already known (decided so, or wrong in the baseline too). */
  isKnown: (row: PredictionRow) => boolean
}

function assertionWords(assertion: Assertion | undefined): string | null {
  if (assertion === undefined) return null
  if (assertion.op === 'noop') return 'noop (changes nothing)'
  const value = assertion.value === null ? '' : ` = ${JSON.stringify(assertion.value)}`
  return `${assertion.op} ${assertion.scope}/${assertion.slot}${value}`
}

/** An episode as the timeline draws it: its events with both times and the gold assertion in words. */
export function episodeView(episode: Episode): EpisodeView {
  return {
    id: episode.episode_id,
    family: episode.family,
    topic: episode.topic,
    events: episode.events.map(
      (event): EventView => ({
        id: event.event_id,
        speaker: event.speaker,
        text: event.text,
        arrivedAt: event.arrived_at,
        effectiveAt: event.assertion?.effective_at ?? null,
        expiresAt: event.assertion?.expires_at ?? null,
        assertion: assertionWords(event.assertion),
      }),
    ),
  }
}

function carries(returned: AnswerValue, value: string | null): boolean {
  if (value === null) return false
  return Array.isArray(returned) ? returned.includes(value) : returned === value
}

/** Events of the probe's slot (any scope: a scope leak comes from the other one) whose value the store returned. */
function sourceEvents(row: PredictionRow, probe: Probe | undefined, episode: Episode | undefined): number[] {
  if (row.status !== 'answered') return []
  return answerSources(row.prediction, probe, episode)
}

/** Events of the probe's slot carrying the value of `answer` (none unless it is known): where a returned value came from. */
export function answerSources(answer: Answer | null, probe: Probe | undefined, episode: Episode | undefined): number[] {
  if (answer === null || answer.state !== 'known' || episode === undefined) return []
  const returned = answer.value ?? null
  const indices: number[] = []
  episode.events.forEach((event, index) => {
    const assertion = event.assertion
    if (assertion === undefined || assertion.op === 'noop') return
    if (probe !== undefined && assertion.slot !== probe.slot) return
    if (carries(returned, assertion.value)) indices.push(index)
  })
  return indices
}

function answerWords(row: PredictionRow): string {
  switch (row.status) {
    case 'answered': {
      const answer = formatAnswer(row.prediction)
      const raw = row.prediction.raw_answer
      if (raw === undefined || raw.trim() === '') return answer
      const said = raw.length > RAW_ANSWER_CHARS ? `${raw.slice(0, RAW_ANSWER_CHARS)}…` : raw
      return `${answer} (said: ${JSON.stringify(said)})`
    }
    case 'unsupported':
      return 'not asked'
    case 'error':
      return `error: ${row.error}`
  }
}

function meaningOf(row: PredictionRow, probe: Probe | undefined, episode: Episode | undefined, known: boolean): string {
  switch (row.status) {
    case 'unsupported':
      return `unsupported: the probe needs the \`${row.capability}\` capability, which the store does not declare`
    case 'error':
      return `the store failed: ${row.error}`
    case 'answered': {
      const meaning =
        probe !== undefined && episode !== undefined
          ? renderDiagnosis(diagnose(row, row.prediction, { probe, events: episode.events }))
          : classifyRow(row) === 'stale_leak'
            ? 'stale value leaked'
            : 'wrong answer'
      return known ? `known failure (already wrong in the baseline): ${meaning}` : meaning
    }
  }
}

function failingProbe(row: PredictionRow, outcome: FailingProbe['outcome'], context: Sources): FailingProbe {
  const probe = context.probes.get(row.probe_id)
  const episode = context.episodes.get(row.episode_id)
  const known = context.isKnown(row)
  return {
    id: row.probe_id,
    episode: row.episode_id,
    family: row.family,
    kind: known ? 'known_failure' : outcome,
    outcome,
    role: row.role,
    phase: row.phase,
    capability: row.capability,
    question: probe?.question ?? null,
    asOf: probe?.as_of ?? null,
    afterEvent: probe?.after_event_index ?? null,
    expected: formatAnswer(row.expected),
    answer: answerWords(row),
    meaning: meaningOf(row, probe, episode, known),
    sources: sourceEvents(row, probe, episode),
  }
}

/**
 * A wrong answer (or stale leak) is a known failure when the end of the test
 * run decided so, or, without decisions, when the baseline recorded it wrong too
 * (the gate's rule). Errors and unsupported probes never are.
 */
export function knownFailureRule(
  decisions: Readonly<Record<string, ProbeDecision>> | undefined,
  baseline: BaselineSuite | null,
): (row: PredictionRow) => boolean {
  if (decisions !== undefined) return (row) => row.status === 'answered' && decisions[row.probe_id] === 'known_failure'
  if (baseline === null) return () => false
  return (row) => row.status === 'answered' && baseline.probes[row.probe_id] === 'wrong'
}

/** The episodes whose timelines a page of `rows` may draw: those of the rows that did not pass, the only ones `failingProbes` looks up. */
export function drawnEpisodes(rows: readonly PredictionRow[]): Set<string> {
  const drawn = new Set<string>()
  for (const row of rows) if (classifyRow(row) !== 'correct') drawn.add(row.episode_id)
  return drawn
}

/** Every row that did not pass, in row order, with the episodes to draw their timelines. */
export function failingProbes(
  rows: readonly PredictionRow[],
  split: { episodes: readonly Episode[]; probes: readonly Probe[] },
  isKnown: (row: PredictionRow) => boolean,
): FailingProbes {
  const context: Sources = {
    probes: new Map(split.probes.map((probe) => [probe.probe_id, probe])),
    episodes: new Map(split.episodes.map((episode) => [episode.episode_id, episode])),
    isKnown,
  }
  const failing: FailingProbe[] = []
  const episodes: Record<string, EpisodeView> = {}
  const kindCounts = Object.fromEntries(FAILURE_KINDS.map((kind) => [kind, 0])) as Record<FailureKind, number>
  let passed = 0
  for (const row of rows) {
    const outcome = classifyRow(row)
    if (outcome === 'correct') {
      passed++
      continue
    }
    const probe = failingProbe(row, outcome, context)
    failing.push(probe)
    kindCounts[probe.kind]++
    const episode = context.episodes.get(row.episode_id)
    if (episode !== undefined && episodes[episode.episode_id] === undefined) episodes[episode.episode_id] = episodeView(episode)
  }
  return { failing, episodes, kindCounts, passed }
}
