/**
 * `modelAdapter('hybrid' | 'managed', { model })`: TIVARQ's two model-backed
 * stores over any AI SDK language model, with the built-in adapters' prompts,
 * parsing, capabilities and result files; only the client differs. Given a
 * `cassette`, the model is wrapped with `recordedModel` first.
 */
import { MODEL_DEFAULTS, ModelConfigError, type ModelPrices } from '../adapters/models/config.js'
import type { ModelBackend } from '../adapters/models/calls.js'
import { isModelAdapterName, MODEL_ADAPTER_NAMES } from '../adapters/models/names.js'
import type { ModelMode } from '../adapters/models/prompts.js'
import { HybridModelStore, ManagedModelStore } from '../adapters/models/stores.js'
import { markIsolatedByConstruction } from '../adapters/source.js'
import type { StoreFactory } from '../adapters/types.js'
import type { ModelCallsMode } from '../cassette/mode.js'
import { type AskSettings, asker } from './ask.js'
import type { WrappableModel } from './model.js'
import { recordedModel } from './recorded-model.js'

/** Options of `modelAdapter` over an AI SDK model. */
export interface AiSdkModelAdapterOptions {
  /** Any AI SDK language model: `openai('gpt-4o-mini')`, `anthropic(…)`, `createOpenAICompatible({…})('qwen2.5')`… */
  model: WrappableModel
  /** Sampling temperature. @default 0 */
  temperature?: number
  /** Ask for a JSON reply on every call (turn off for a provider that rejects it). @default true */
  jsonMode?: boolean
  /** Retries the AI SDK makes on a retryable failure. @default 2 */
  maxRetries?: number
  /** Milliseconds one call may take, its retries included. @default 120000 */
  timeoutMs?: number
  /** Prices in US dollars per million tokens, to record `cost_usd` per answer. @default none */
  prices?: ModelPrices
  /** Slots the hybrid extractor may name. @default TIVARQ v1's seven slots */
  slots?: readonly string[]
  /** Record the model's calls into, and replay them from, this cassette (see `recordedModel`). @default none: every call is live */
  cassette?: string
  /** The cassette's mode; `TIMEGROUNDED_MODEL_CALLS` overrides it. @default 'replay' under CI, else 'auto' */
  callsMode?: ModelCallsMode
}

/** A factory of model-backed stores over an AI SDK model. */
export interface AiSdkModelAdapter extends StoreFactory {
  /** `hybrid` or `managed`. */
  readonly mode: ModelMode
  /** The longest one store call can take. */
  readonly callBudgetMs: number
}

const DEFAULTS = { temperature: 0, jsonMode: true, maxRetries: 2, timeoutMs: 120_000 } as const

function check(mode: ModelMode, options: AiSdkModelAdapterOptions): void {
  const problems: string[] = []
  if (!isModelAdapterName(mode)) problems.push(`the mode is ${JSON.stringify(mode)}; use one of ${MODEL_ADAPTER_NAMES.join(', ')}`)
  const model = options?.model as unknown as { modelId?: unknown; doGenerate?: unknown } | undefined
  if (typeof model !== 'object' || model === null || typeof model.doGenerate !== 'function') {
    problems.push('option `model` is not an AI SDK language model object (e.g. `openai("gpt-4o-mini")`); a model id string is not taken')
  }
  const t = options?.temperature
  if (t !== undefined && !(typeof t === 'number' && t >= 0 && t <= 2))
    problems.push(`option \`temperature\` is ${JSON.stringify(t)}; expected a number from 0 to 2`)
  const ms = options?.timeoutMs
  if (ms !== undefined && !(Number.isInteger(ms) && ms > 0)) problems.push(`option \`timeoutMs\` is ${JSON.stringify(ms)}; expected a whole number of ms > 0`)
  if (problems.length > 0) throw new ModelConfigError(problems)
}

/** The `model_config` an AI SDK model is recorded with in `run_manifest.json`: provider and model id, never a key or URL. */
function configRecord(model: WrappableModel, options: AiSdkModelAdapterOptions, settings: AskSettings) {
  const { provider, modelId } = model as unknown as { provider: string; modelId: string }
  return {
    api: 'ai-sdk',
    provider,
    model: modelId,
    temperature: settings.temperature,
    json_mode: settings.jsonMode,
    timeout_ms: settings.timeoutMs,
    retries: settings.maxRetries,
    cassette: options.cassette === undefined ? null : 'recorded',
    prices_usd_per_million_tokens:
      options.prices === undefined ? null : { prompt: options.prices.promptUsdPerMillionTokens, completion: options.prices.completionUsdPerMillionTokens },
  }
}

/**
 * A factory of fresh `mode` stores (named `model:MODE`) over `options.model`. Checked now: throws
 * `ModelConfigError` listing every problem.
 */
export function modelAdapter(mode: ModelMode, options: AiSdkModelAdapterOptions): AiSdkModelAdapter {
  check(mode, options)
  const settings: AskSettings = {
    ...DEFAULTS,
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.jsonMode !== undefined ? { jsonMode: options.jsonMode } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  }
  const model =
    options.cassette === undefined
      ? options.model
      : recordedModel(options.model, { cassette: options.cassette, ...(options.callsMode ? { mode: options.callsMode } : {}) })
  const ask = asker(model, settings)
  const backend: ModelBackend = {
    configRecord: configRecord(options.model, options, settings),
    jsonMode: settings.jsonMode,
    slots: options.slots ?? MODEL_DEFAULTS.slots,
    prices: options.prices ?? null,
    ask: (instructions, message, asked) => ask(instructions, message, asked),
  }
  const create = (): HybridModelStore | ManagedModelStore => (mode === 'hybrid' ? new HybridModelStore(backend) : new ManagedModelStore(backend))
  Object.defineProperty(create, 'name', { value: `model:${mode}` })
  return markIsolatedByConstruction(Object.assign(create, { mode, callBudgetMs: settings.timeoutMs }))
}
