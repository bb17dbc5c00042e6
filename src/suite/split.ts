/**
 * The episodes a suite runs: the regression episodes it was given, a seeded
 * variant of the dataset, or a split of the dataset folder. Vitest collects
 * asynchronously and Jest synchronously, so both forms exist; they choose the
 * same source by the same rule.
 */
import type { LoadedSplit } from '../tivarq/dataset.js'
import { loadSplit, loadVariantSplit } from '../tivarq/dataset.js'
import { loadSplitSync, loadVariantSplitSync } from '../tivarq/dataset-sync.js'
import { regressionSplit } from '../tivarq/regression.js'
import type { ResolvedSuiteOptions } from './options.js'

const EPISODES_OPTION = 'timegroundedSuite(memory, { episodes })'

/** The suite's episodes, read without blocking (Vitest's collection). */
export async function loadSuiteSplit(settings: ResolvedSuiteOptions): Promise<LoadedSplit> {
  if (settings.episodes !== undefined) return regressionSplit(settings.episodes, EPISODES_OPTION)
  if (settings.variant !== undefined) return loadVariantSplit(settings.variant, settings.split)
  return loadSplit(settings.datasetDir, settings.split)
}

/** The suite's episodes, read at once (Jest registers tests synchronously). */
export function loadSuiteSplitSync(settings: ResolvedSuiteOptions): LoadedSplit {
  if (settings.episodes !== undefined) return regressionSplit(settings.episodes, EPISODES_OPTION)
  if (settings.variant !== undefined) return loadVariantSplitSync(settings.variant, settings.split)
  return loadSplitSync(settings.datasetDir, settings.split)
}
