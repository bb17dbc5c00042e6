/**
 * The synchronous loaders, for test runners that register tests synchronously
 * (Jest). Apart from dataset.ts because they need the validator and the
 * generator at hand, where the asynchronous loaders import them only when a
 * directory or a variant calls for them.
 */
import { checkSplit, type LoadedSplit, type LoadOptions, splitOf } from './loaded-split.js'
import { inspectBundled, isBundledDir } from './bundled-dataset.js'
import { generateDataset } from './generate.js'
import { inspectDatasetSync } from './validate.js'
import { resolveVariant, type VariantOptions } from './variant.js'
import type { Split } from './vocabulary.js'

/** loadSplit, synchronously. */
export function loadSplitSync(dir: string | undefined, split: Split, options: LoadOptions = {}): LoadedSplit {
  checkSplit(split)
  return splitOf((isBundledDir(dir) ? inspectBundled([split]) : null) ?? inspectDatasetSync(dir, { ...options, splits: [split] }), split)
}

const generatedVariants = new Map<string, ReadonlyMap<string, string>>()

/** loadVariantSplit, synchronously (generating a variant is synchronous work anyway). */
export function loadVariantSplitSync(variant: number | VariantOptions, split: Split, options: LoadOptions = {}): LoadedSplit {
  checkSplit(split)
  const resolved = resolveVariant(typeof variant === 'number' ? { seed: variant } : variant)
  const key = JSON.stringify(resolved)
  let files = generatedVariants.get(key)
  if (files === undefined) {
    files = new Map(Object.entries(generateDataset({ variant: typeof variant === 'number' ? { seed: variant } : variant }).files))
    generatedVariants.set(key, files)
  }
  return splitOf(inspectDatasetSync(`TIVARQ variant ${resolved.seed} (generated in memory)`, { ...options, splits: [split], files }), split)
}
