/** The dataset a time-grounded run asks: the embedded corpus or a LongMemEval-shaped file, with its identity. */
import { knownDatasetId, timeGroundedCorpus } from './corpus/index.js'
import { loadLongMemEval, loadLongMemEvalSync, type LongMemEvalDataset, type LongMemEvalEntry } from './longmemeval.js'

/** A dataset ready to run: its identity and its validated entries. */
export interface GroundedDataset {
  datasetId: string
  datasetSha256: string
  items: readonly LongMemEvalEntry[]
}

/** The embedded corpus, or a LongMemEval-shaped file (named by the corpus id when it holds exactly the authored corpus or a generated one). */
export async function loadGroundedDataset(file: string | undefined): Promise<GroundedDataset> {
  return file === undefined ? timeGroundedCorpus() : named(await loadLongMemEval(file))
}

/** loadGroundedDataset, synchronously (the whole file read at once): for test runners that register tests synchronously (Jest). */
export function loadGroundedDatasetSync(file: string | undefined): GroundedDataset {
  return file === undefined ? timeGroundedCorpus() : named(loadLongMemEvalSync(file))
}

/** A loaded file named by the corpus id when it holds exactly the authored corpus or a generated one. */
function named(loaded: LongMemEvalDataset): GroundedDataset {
  return {
    ...loaded,
    datasetId: knownDatasetId(loaded.datasetSha256, loaded.datasetId, { firstQuestionId: loaded.items[0]?.question_id, entries: loaded.items.length }),
  }
}
