/**
 * Regression episodes: a TIVARQ episode written by hand or pasted from a
 * property failure, its questions inline (slot, scope, as-of, after how many
 * events), their expected answers derived by the gold resolver. What
 * `timegroundedSuite(store, { episodes })` and `timegrounded run --episodes`
 * run as ordinary probes.
 */
import { z } from 'zod'
import { TimegroundedError } from '../errors.js'
import { canonicalJsonLine } from './canonical-json.js'
import type { LoadedSplit } from './dataset.js'
import { sha256Hex } from './dataset-files.js'
import { resolveGold, sameAnswer } from './gold.js'
import { type AnswerValue, answerSchema, type Episode, eventSchema, isoInstant, type Probe, type TivarqEvent } from './schema.js'
import { CAPABILITIES, DATASET_SEED, FAMILIES, SCHEMA_VERSION, SCOPES } from './vocabulary.js'

/** One question of a regression episode; `expected`, when given, must equal the gold resolver's answer. */
export const regressionQuerySchema = z.strictObject({
  after_event_index: z.number().int().min(0),
  slot: z.string().min(1),
  scope: z.enum(SCOPES),
  as_of: isoInstant,
  capability: z.enum(CAPABILITIES).optional(),
  expected: answerSchema.optional(),
})

/** A regression episode: an episode's events and its questions. */
export const regressionEpisodeSchema = z.strictObject({
  episode_id: z.string().min(1),
  family: z.enum(FAMILIES),
  events: z.array(eventSchema),
  /** May be empty: an episode run only to set a store up before the next (a check that resets work). */
  queries: z.array(regressionQuerySchema),
})
/** A parsed regression episode. */
export type RegressionEpisode = z.infer<typeof regressionEpisodeSchema>
/** A parsed regression query. */
export type RegressionQuery = z.infer<typeof regressionQuerySchema>

/** The codes of `RegressionEpisodeError`, each with what it means. */
export interface RegressionEpisodeErrorCodes {
  /** Regression episodes (`episodes`, `--episodes`) that cannot run. */
  REGRESSION_EPISODE_INVALID: 'RegressionEpisodeError'
}

/** Regression episodes that cannot run: each problem on its own line, naming the episode, query and field. */
export class RegressionEpisodeError extends TimegroundedError<keyof RegressionEpisodeErrorCodes> {
  constructor(message: string) {
    super('REGRESSION_EPISODE_INVALID', message)
    this.stack = `${this.name}: ${message}`
  }
}

const QUESTION_BY_SLOT: Readonly<Record<string, string>> = {
  notification_channel: 'notification channel',
  interface_language: 'interface language',
}

/** The question in words, as v1 phrases its structured probes. */
export function questionFor(slot: string, scope: string, asOf: string): string {
  return `As of ${asOf.slice(0, 10)}, what is my ${QUESTION_BY_SLOT[slot] ?? slot.replace(/_/g, ' ')} for ${scope}?`
}

/**
 * The value a change to the slot invalidated: what the slot held just before
 * its latest change effective by `asOf`, when that was a known value the
 * change replaced. Gives the suite's diagnosis (`stale value leaked: …`) the
 * facts a v1 probe's `old_value` carries.
 */
export function oldValueFor(events: readonly TivarqEvent[], query: { slot: string; scope: string; asOf: string }): AnswerValue {
  const asOf = Date.parse(query.asOf)
  let latest: { effective: number; arrival: number } | null = null
  events.forEach((event, arrival) => {
    const assertion = event.assertion
    if (!assertion || assertion.op === 'noop' || assertion.slot !== query.slot || assertion.scope !== query.scope) return
    const effective = Date.parse(assertion.effective_at)
    if (effective > asOf) return
    if (latest === null || effective > latest.effective || (effective === latest.effective && arrival > latest.arrival)) latest = { effective, arrival }
  })
  if (latest === null) return null
  const before = resolveGold(events, { ...query, asOf: new Date((latest as { effective: number }).effective - 1).toISOString() })
  if (before.state !== 'known') return null
  const now = resolveGold(events, query)
  return now.state === 'known' && sameAnswer(now, before) ? null : before.value
}

/** A probe id that sorts in asking order (`orderProbes` compares ids as strings). */
function probeIdOf(episodeId: string, index: number): string {
  return `${episodeId}-q${String(index + 1).padStart(3, '0')}`
}

/** The episode row and probes of one checked regression episode (gold from the resolver). */
export function expandRegressionEpisode(row: RegressionEpisode): { episode: Episode; probes: Probe[] } {
  const episode: Episode = {
    schema_version: SCHEMA_VERSION,
    episode_id: row.episode_id,
    family: row.family,
    split: 'dev',
    seed: DATASET_SEED,
    topic: row.queries[0]?.slot ?? row.events.find((event) => event.assertion)?.assertion?.slot ?? 'none',
    events: row.events.map((event) => structuredClone(event)),
  }
  const probes = row.queries.map((query, index): Probe => {
    const ingested = episode.events.slice(0, query.after_event_index)
    const asked = { slot: query.slot, scope: query.scope, asOf: query.as_of }
    return {
      probe_id: probeIdOf(row.episode_id, index),
      episode_id: row.episode_id,
      after_event_index: query.after_event_index,
      as_of: query.as_of,
      question: questionFor(query.slot, query.scope, query.as_of),
      slot: query.slot,
      scope: query.scope,
      expected: resolveGold(ingested, asked),
      role: 'target',
      transition_id: `${row.episode_id}-t${index + 1}`,
      phase: 'check',
      capability: query.capability ?? 'basic',
      old_value: oldValueFor(ingested, asked),
    }
  })
  return { episode, probes }
}

function problemsOf(row: RegressionEpisode, index: number): string[] {
  const problems: string[] = []
  row.queries.forEach((query, q) => {
    const where = `episodes[${index}] (${row.episode_id}) queries[${q}]`
    if (query.after_event_index > row.events.length) {
      problems.push(`${where}.after_event_index is ${query.after_event_index}: the episode has only ${row.events.length} events`)
      return
    }
    if (query.expected === undefined) return
    const gold = resolveGold(row.events.slice(0, query.after_event_index), { slot: query.slot, scope: query.scope, asOf: query.as_of })
    if (!sameAnswer(gold, query.expected)) {
      problems.push(
        `${where}.expected is ${JSON.stringify(query.expected)}, but the gold resolver answers ${JSON.stringify(gold)}; drop \`expected\` (the resolver decides it) or fix the events`,
      )
    }
  })
  return problems
}

/**
 * Check regression episodes (`where` names them: an option, a file) and
 * expand them into episodes and probes. Throws `RegressionEpisodeError`
 * listing every problem: a bad field, a repeated episode id, a query after
 * the last event, an `expected` the resolver disagrees with.
 */
export function expandRegressionEpisodes(rows: unknown, where: string): { episodes: Episode[]; probes: Probe[] } {
  const parsed = z.array(regressionEpisodeSchema).min(1, 'at least one episode').safeParse(rows)
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  episodes${issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('')}: ${issue.message}`,
    )
    throw new RegressionEpisodeError(`${where}: invalid regression episodes:\n${lines.join('\n')}`)
  }
  const seen = new Set<string>()
  const problems: string[] = []
  parsed.data.forEach((row, index) => {
    if (seen.has(row.episode_id)) problems.push(`episodes[${index}].episode_id ${JSON.stringify(row.episode_id)} is used twice; give each episode its own id`)
    seen.add(row.episode_id)
    problems.push(...problemsOf(row, index))
  })
  if (problems.length > 0) throw new RegressionEpisodeError(`${where}: invalid regression episodes:\n${problems.map((line) => `  ${line}`).join('\n')}`)
  const expanded = parsed.data.map(expandRegressionEpisode)
  return { episodes: expanded.map(({ episode }) => episode), probes: expanded.flatMap(({ probes }) => probes) }
}

/** The file name a regression set's hash is recorded under (in the baseline's identity and the run manifest). */
export const REGRESSION_FILE = 'regression_episodes.json'

/**
 * Regression episodes as a split the suite and `run` can load: its episodes
 * and probes, and a manifest and file hash of its own (so a baseline of these
 * episodes never matches TIVARQ v1's, nor another set's).
 */
export function regressionSplit(rows: unknown, where: string): LoadedSplit {
  const { episodes, probes } = expandRegressionEpisodes(rows, where)
  const hash = sha256Hex(canonicalJsonLine(rows))
  const families = [...new Set(episodes.map((episode) => episode.family))]
  return {
    episodes,
    probes,
    manifest: { episode_count: episodes.length, families, files: { [REGRESSION_FILE]: hash }, schema_version: SCHEMA_VERSION, seed: DATASET_SEED },
    fileHashes: { [REGRESSION_FILE]: hash },
    manifestSha256: hash,
    variant: null,
  }
}
