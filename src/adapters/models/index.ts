/**
 * Model adapters for TIVARQ's conversation track, as stores: `hybrid` and
 * `managed` over any OpenAI-compatible chat-completions endpoint. Run them
 * with `timegrounded run --adapter model:hybrid|model:managed`, or hand
 * `modelAdapter(mode)` to `timegroundedSuite` or `openPool`.
 */
import { chatCallBudgetMs } from '../../chat/client.js'
import { markIsolatedByConstruction } from '../source.js'
import { chatBackend } from './calls.js'
import type { StoreFactory } from '../types.js'
import { ModelConfigError, resolveModelConfig, type ModelAdapterOptions, type ModelConfig } from './config.js'
import type { ModelMode } from './prompts.js'
import { HybridModelStore, ManagedModelStore } from './stores.js'

import { isModelAdapterName, MODEL_ADAPTER_NAMES } from './names.js'

export { isModelAdapterName, MODEL_ADAPTER_NAMES, MODEL_ADAPTERS } from './names.js'

/** A factory of model-backed stores, with the configuration it checked. */
export interface ModelAdapter extends StoreFactory {
  readonly mode: ModelMode
  readonly config: ModelConfig
  /** The longest one store call can take: every attempt of a model call timing out, every retry wait at its cap. */
  readonly callBudgetMs: number
}

/**
 * A factory of fresh `mode` stores (named `model:MODE`). The configuration
 * (options, then `TIVARQ_*` variables, then defaults) is checked now: throws
 * `ModelConfigError` listing every problem, e.g. a missing base URL or model.
 */
export function modelAdapter(mode: ModelMode, options: ModelAdapterOptions = {}): ModelAdapter {
  if (!isModelAdapterName(mode)) {
    throw new ModelConfigError([
      `the mode is ${JSON.stringify(mode)}; use one of ${MODEL_ADAPTER_NAMES.join(', ')} (e.g. modelAdapter('managed'), or \`--adapter model:managed\`)`,
    ])
  }
  const config = resolveModelConfig(options)
  const backend = chatBackend(config, {
    ...(options.cassette !== undefined ? { cassette: options.cassette } : {}),
    ...(options.callsMode !== undefined ? { callsMode: options.callsMode } : {}),
  })
  const create = (): HybridModelStore | ManagedModelStore => (mode === 'hybrid' ? new HybridModelStore(backend) : new ManagedModelStore(backend))
  Object.defineProperty(create, 'name', { value: `model:${mode}` })
  // One instance per episode, nothing at module level: the runner's isolation check (a paid model call per episode) is skipped.
  return markIsolatedByConstruction(Object.assign(create, { mode, config, callBudgetMs: chatCallBudgetMs(config.endpoint) }))
}

export type { ModelAdapterOptions } from './config.js'
export type { ModelMode } from './prompts.js'
