/**
 * Where the page's timelines come from: the episodes and probes a run asked.
 * A test run reads its suite's split again (synchronously, at the end of the
 * run) and uses it only when the files hash to the suite's dataset hash; a
 * predictions file scored on its own is matched against the data it is said
 * to come from, probe by probe. Either way a timeline is never drawn from
 * data the run did not ask.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { bundledDatasetDir, datasetHashOf, episodesFileName, probesFileName, sha256Hex } from '../../../tivarq/dataset-files.js'
import { generateDataset } from '../../../tivarq/generate.js'
import type { PredictionRow } from '../../../tivarq/results.js'
import type { Episode, Probe } from '../../../tivarq/schema.js'
import { SPLITS, type Split } from '../../../tivarq/vocabulary.js'

/** The episodes and probes a page draws timelines from, or why there are none. */
export interface Timelines {
  episodes: Episode[]
  probes: Probe[]
  /** Why some or all timelines are missing, when they are. */
  note?: string
}

function jsonLines<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T)
}

/** Where a suite's data came from: a directory (the bundled one when undefined), or a variant generated in memory. */
export interface SuiteData {
  dir?: string
  variant?: number
}

/** The two files of `split`, as text, from where the suite's data came; throws when they cannot be read. */
function splitFiles(data: SuiteData, names: readonly [string, string]): string[] {
  if (data.variant !== undefined) {
    // Deterministic: the same seed generates the same bytes the suite ran.
    const files = generateDataset({ variant: data.variant }).files as Readonly<Record<string, string>>
    return names.map((name) => files[name] ?? '')
  }
  const where = data.dir ?? bundledDatasetDir()
  return names.map((name) => readFileSync(join(where, name), 'utf8'))
}

/**
 * The split a suite ran, read again (or generated again, for a variant). Its
 * rows are used only when the two files hash to `datasetHash`, the hash of
 * the bytes the suite loaded and validated; otherwise (files moved, changed,
 * or a merge on another machine) no timelines, and a note why.
 */
export function suiteTimelines(data: SuiteData, split: string, datasetHash: string): Timelines {
  const where = data.variant !== undefined ? `TIVARQ variant ${data.variant}` : (data.dir ?? bundledDatasetDir())
  if (!(SPLITS as readonly string[]).includes(split))
    return { episodes: [], probes: [], note: `the suite's split ${JSON.stringify(split)} is not a TIVARQ split` }
  const names = [episodesFileName(split as Split), probesFileName(split as Split)] as const
  let files: string[]
  try {
    files = splitFiles(data, names)
  } catch (error) {
    return { episodes: [], probes: [], note: `the suite's data could not be read again from ${where} (${(error as Error).message})` }
  }
  const hash = datasetHashOf(Object.fromEntries(names.map((name, index) => [name, sha256Hex(files[index] as string)])))
  if (hash !== datasetHash) {
    const why = data.variant !== undefined ? 'it generates other data here' : 'its files changed since'
    return { episodes: [], probes: [], note: `the ${split} split in ${where} is no longer the data the suite ran (${why})` }
  }
  // The same bytes the suite validated before it ran.
  const [episodes, probes] = files as [string, string]
  return { episodes: jsonLines<Episode>(episodes), probes: jsonLines<Probe>(probes) }
}

/** Whether the data's probe is the one a row answered: the same episode, transition, place in it, old value and expected answer. */
function sameProbe(row: PredictionRow, probe: Probe): boolean {
  return (
    probe.episode_id === row.episode_id &&
    probe.role === row.role &&
    probe.phase === row.phase &&
    probe.transition_id === row.transition_id &&
    JSON.stringify(probe.old_value) === JSON.stringify(row.old_value) &&
    JSON.stringify(probe.expected) === JSON.stringify(row.expected)
  )
}

/**
 * The timelines of `rows` from some data (`source` names it in the note): used
 * only when every row's probe is in it and is the same probe. Data that holds
 * other probes under the same ids (a variant scored against v1) gives none.
 */
export function matchedTimelines(rows: readonly PredictionRow[], data: { episodes: readonly Episode[]; probes: readonly Probe[] }, source: string): Timelines {
  const probes = new Map(data.probes.map((probe) => [probe.probe_id, probe]))
  for (const row of rows) {
    const probe = probes.get(row.probe_id)
    if (probe === undefined || !sameProbe(row, probe)) {
      const what = probe === undefined ? 'is not in it' : 'is another probe there'
      return {
        episodes: [],
        probes: [],
        note: `the predictions are not of ${source} (probe ${row.probe_id} ${what}); pass the data they were run on with \`--dataset DIR\``,
      }
    }
  }
  const asked = new Set(rows.map((row) => row.episode_id))
  return {
    episodes: data.episodes.filter((episode) => asked.has(episode.episode_id)),
    probes: [...probes.values()].filter((probe) => asked.has(probe.episode_id)),
  }
}
