/**
 * The model adapters' names and what each does: all the CLI needs to parse
 * `--adapter model:NAME` and print its help, apart from the adapters and their
 * chat client, which it loads only when a model adapter runs.
 */
import type { ModelMode } from './prompts.js'

/** The model adapters by name, as `--adapter model:NAME` takes them. */
export const MODEL_ADAPTERS: Readonly<Record<ModelMode, { description: string }>> = {
  hybrid: { description: 'a model extracts an assertion from each turn into a version table, which answers' },
  managed: { description: 'a model answers each question from the turns so far, the question and as_of' },
}

/** `hybrid` and `managed`. */
export const MODEL_ADAPTER_NAMES = Object.keys(MODEL_ADAPTERS) as ModelMode[]

/** True when `name` is a model adapter's name. */
export function isModelAdapterName(name: string): name is ModelMode {
  return (MODEL_ADAPTER_NAMES as string[]).includes(name)
}
