/**
 * A test run's timelines: its suite's split read again (synchronously, at the
 * end of the run), or generated again for a variant, and used only when the
 * files hash to the suite's dataset hash. Apart from timelines.ts because it
 * needs the dataset generator, which `score` does not.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { rowsOf, wantedEpisodesOf } from '../../../tivarq/bundled-dataset.js'
import { bundledDatasetDir, datasetHashOf, episodesFileName, probesFileName, sha256Hex } from '../../../tivarq/dataset-files.js'
import { generateDataset } from '../../../tivarq/generate.js'
import type { Probe } from '../../../tivarq/schema.js'
import { SPLITS, type Split } from '../../../tivarq/vocabulary.js'
import type { Timelines } from './timelines.js'

/** Where a suite's data came from: a directory (the bundled one when undefined), or a variant generated in memory. */
export interface SuiteData {
  dir?: string
  variant?: number
}

/**
 * The two files of `split`, as their bytes, from where the suite's data came;
 * throws when they cannot be read. Bytes, not text: they are hashed as bytes,
 * and their rows decoded a line at a time, so no string of a whole file is made.
 */
function splitFiles(data: SuiteData, names: readonly [string, string]): Buffer[] {
  if (data.variant !== undefined) {
    // Deterministic: the same seed generates the same bytes the suite ran.
    const files = generateDataset({ variant: data.variant }).files as Readonly<Record<string, string>>
    return names.map((name) => Buffer.from(files[name] ?? '', 'utf8'))
  }
  const where = data.dir ?? bundledDatasetDir()
  return names.map((name) => readFileSync(join(where, name)))
}

/**
 * The split a suite ran, read again (or generated again, for a variant): every
 * probe, and the episodes in `drawn` (those the page may draw, `drawnEpisodes`
 * of the run's rows; parsing the others was most of reading the split). Its
 * rows are used only when the two files hash to `datasetHash`, the hash of
 * the bytes the suite loaded and validated; otherwise (files moved, changed,
 * or a merge on another machine) no timelines, and a note why.
 */
export function suiteTimelines(data: SuiteData, split: string, datasetHash: string, drawn: ReadonlySet<string>): Timelines {
  const where = data.variant !== undefined ? `TIVARQ variant ${data.variant}` : (data.dir ?? bundledDatasetDir())
  if (!(SPLITS as readonly string[]).includes(split))
    return { episodes: [], probes: [], note: `the suite's split ${JSON.stringify(split)} is not a TIVARQ split` }
  const names = [episodesFileName(split as Split), probesFileName(split as Split)] as const
  let files: Buffer[]
  try {
    files = splitFiles(data, names)
  } catch (error) {
    return { episodes: [], probes: [], note: `the suite's data could not be read again from ${where} (${(error as Error).message})` }
  }
  const hash = datasetHashOf(Object.fromEntries(names.map((name, index) => [name, sha256Hex(files[index] as Buffer)])))
  if (hash !== datasetHash) {
    const why = data.variant !== undefined ? 'it generates other data here' : 'its files changed since'
    return { episodes: [], probes: [], note: `the ${split} split in ${where} is no longer the data the suite ran (${why})` }
  }
  // The same bytes the suite validated before it ran.
  const [episodes, probes] = files as [Buffer, Buffer]
  return { episodes: wantedEpisodesOf(episodes, drawn), probes: rowsOf<Probe>(probes) }
}
