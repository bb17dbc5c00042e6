/**
 * Configuration of the model adapters: options first, then the environment
 * variables upstream TIVARQ reads (`TIVARQ_BASE_URL`, `TIVARQ_MODEL`,
 * `TIVARQ_API_KEY`, `TIVARQ_TEMPERATURE`) and three of ours, then the
 * defaults. Everything is checked when an adapter is created, and every
 * problem is reported at once, naming the option and the variable.
 */
import { z } from 'zod'
import { CHAT_DEFAULTS, type ChatEndpoint } from '../../chat/client.js'
import { credentialsInUrlMessage, redactUrl, urlCredentials } from '../../chat/url.js'
import type { ModelCallsMode } from '../../cassette/mode.js'
import { TimegroundedError } from '../../errors.js'

/**
 * What a model adapter can be told. The endpoint fields fall back on their
 * environment variable, then their default; `retries`, `backoffMs`,
 * `maxRetryWaitMs` and `onRetry` are the chat client's (see `ChatEndpoint`).
 */
export interface ModelAdapterOptions extends Partial<Pick<ChatEndpoint, 'retries' | 'backoffMs' | 'maxRetryWaitMs' | 'onRetry'>> {
  /** Base URL up to and excluding `/chat/completions`, e.g. `http://127.0.0.1:8080/v1`. @default $TIVARQ_BASE_URL (required) */
  baseUrl?: string
  /** Model name sent with every request. @default $TIVARQ_MODEL (required) */
  model?: string
  /** Sent as `Authorization: Bearer …`. @default $TIVARQ_API_KEY, else none */
  apiKey?: string
  /** Sampling temperature, 0 to 2. @default $TIVARQ_TEMPERATURE, else 0 */
  temperature?: number
  /** Milliseconds per attempt of one model call. @default $TIVARQ_TIMEOUT_MS, else 60000 */
  timeoutMs?: number
  /** Ask for `response_format: {"type": "json_object"}` (turn off for a server that rejects it). @default true */
  jsonMode?: boolean
  /**
   * Prices in US dollars per million tokens, to record `cost_usd` per answer.
   * @default $TIVARQ_PROMPT_USD_PER_MTOK and $TIVARQ_COMPLETION_USD_PER_MTOK, else no cost is recorded
   */
  prices?: ModelPrices
  /** Slots the hybrid extractor may name (its prompt lists them). @default TIVARQ v1's seven slots */
  slots?: readonly string[]
  /** Where the variables are read from. @default process.env */
  env?: Readonly<Record<string, string | undefined>>
  /** Record the model's calls into, and replay them from, this cassette (JSONL, committed with the tests). @default none: every call is live */
  cassette?: string
  /** The cassette's mode; `TIMEGROUNDED_MODEL_CALLS` overrides it. @default 'replay' when `CI` is set, else 'auto' */
  callsMode?: ModelCallsMode
}

/** Prices of a model, in US dollars per million tokens. */
export interface ModelPrices {
  promptUsdPerMillionTokens: number
  completionUsdPerMillionTokens: number
}

/** The environment variables the model adapters read, by option. */
export const MODEL_ENV = {
  baseUrl: 'TIVARQ_BASE_URL',
  model: 'TIVARQ_MODEL',
  apiKey: 'TIVARQ_API_KEY',
  temperature: 'TIVARQ_TEMPERATURE',
  timeoutMs: 'TIVARQ_TIMEOUT_MS',
  promptPrice: 'TIVARQ_PROMPT_USD_PER_MTOK',
  completionPrice: 'TIVARQ_COMPLETION_USD_PER_MTOK',
} as const

/** The slots of TIVARQ v1: the six topics and the interface language every episode states. */
export const TIVARQ_V1_SLOTS: readonly string[] = [
  'notification_channel',
  'workspace_theme',
  'meeting_window',
  'note_format',
  'music_genre',
  'coding_language',
  'interface_language',
]

/** Defaults of the model adapters beyond the chat client's (`CHAT_DEFAULTS`), resolved in one place. */
export const MODEL_DEFAULTS = { jsonMode: true, slots: TIVARQ_V1_SLOTS } as const

/** Everything a model adapter runs with, checked. */
export interface ModelConfig {
  endpoint: ChatEndpoint & Required<Pick<ChatEndpoint, 'temperature' | 'timeoutMs' | 'retries' | 'backoffMs' | 'maxRetryWaitMs'>>
  jsonMode: boolean
  prices: ModelPrices | null
  slots: readonly string[]
}

/** The codes of `ModelConfigError`, each with what it means. */
export interface ModelConfigErrorCodes {
  /** A model adapter is not configured (base URL, model, temperature…). */
  MODEL_CONFIG_INVALID: 'ModelConfigError'
}

/** A model adapter's configuration is missing or wrong (code `MODEL_CONFIG_INVALID`); `problems` lists each, one a line in the message. */
export class ModelConfigError extends TimegroundedError<keyof ModelConfigErrorCodes> {
  constructor(readonly problems: readonly string[]) {
    super('MODEL_CONFIG_INVALID', `the model adapter is not configured:\n${problems.map((problem) => `  ${problem}`).join('\n')}`)
  }
}

const httpUrl = z.url({ protocol: /^https?$/ })
const slotName = z.string().regex(/^[a-z][a-z0-9_]*$/)

/** Each option's check, and the words a problem with it is told in. */
const CHECKS = {
  baseUrl: { schema: httpUrl, expected: 'an http(s) URL such as http://127.0.0.1:8080/v1' },
  model: { schema: z.string().trim().min(1), expected: 'a model name' },
  apiKey: { schema: z.string(), expected: 'a string' },
  temperature: { schema: z.number().min(0).max(2), expected: 'a number from 0 to 2' },
  timeoutMs: { schema: z.number().int().positive(), expected: 'a whole number of ms > 0' },
  retries: { schema: z.number().int().min(0).max(20), expected: 'a whole number from 0 to 20' },
  backoffMs: { schema: z.number().min(0), expected: 'a number of ms ≥ 0' },
  maxRetryWaitMs: { schema: z.number().min(0), expected: 'a number of ms ≥ 0' },
  jsonMode: { schema: z.boolean(), expected: 'true or false' },
  price: { schema: z.number().finite().min(0), expected: 'a number of US dollars per million tokens ≥ 0' },
  slots: { schema: z.array(slotName).min(1), expected: 'a non-empty list of snake_case slot names' },
} as const

type CheckName = keyof typeof CHECKS

/** Collects the problems of one configuration, then builds it. */
class ConfigReader {
  readonly problems: string[] = []
  constructor(private readonly env: Readonly<Record<string, string | undefined>>) {}

  /** The option, else its variable (read as a number when `numeric`); checked. Undefined when neither is set or it is wrong. */
  read<T>(check: CheckName, option: string, given: unknown, variable: string | null, numeric = false): T | undefined {
    const raw = variable === null ? undefined : this.env[variable]
    const fromEnv = given === undefined && raw !== undefined && raw !== ''
    const value = given !== undefined ? given : fromEnv ? (numeric ? numberOf(raw) : raw) : undefined
    if (value === undefined) return undefined
    const parsed = CHECKS[check].schema.safeParse(value)
    if (parsed.success) return parsed.data as T
    // A base URL is shown masked: it may carry a password or a key.
    const shown = (value: unknown) => JSON.stringify(check === 'baseUrl' && typeof value === 'string' ? redactUrl(value) : value)
    const where = fromEnv ? `\`${variable}\` is ${shown(raw)}` : `option \`${option}\` is ${shown(given)}`
    this.problems.push(`${where}; expected ${CHECKS[check].expected}`)
    return undefined
  }

  /** Like `read`, but a missing value is a problem naming the option and the variable. */
  require<T>(check: CheckName, option: string, given: unknown, variable: string, example: string): T | undefined {
    const value = this.read<T>(check, option, given, variable)
    if (value === undefined && given === undefined && (this.env[variable] ?? '') === '') {
      this.problems.push(`\`${option}\` is missing: set ${variable} (e.g. ${variable}=${example}), or pass \`${option}\` to modelAdapter()`)
    }
    return value
  }
}

function numberOf(text: string): number | string {
  const number = Number(text.trim())
  return text.trim() !== '' && Number.isFinite(number) ? number : text
}

function readPrices(reader: ConfigReader, options: ModelAdapterOptions): ModelPrices | null {
  const given = options.prices
  const problemsBefore = reader.problems.length
  const prompt = reader.read<number>('price', 'prices.promptUsdPerMillionTokens', given?.promptUsdPerMillionTokens, given ? null : MODEL_ENV.promptPrice, true)
  const completion = reader.read<number>(
    'price',
    'prices.completionUsdPerMillionTokens',
    given?.completionUsdPerMillionTokens,
    given ? null : MODEL_ENV.completionPrice,
    true,
  )
  if (prompt !== undefined && completion !== undefined) return { promptUsdPerMillionTokens: prompt, completionUsdPerMillionTokens: completion }
  // One price alone would record a cost that leaves out part of the tokens.
  if (reader.problems.length === problemsBefore && (given !== undefined || prompt !== undefined || completion !== undefined)) {
    const missing = prompt === undefined ? 'prompt' : 'completion'
    reader.problems.push(
      given !== undefined
        ? `option \`prices\` needs both \`promptUsdPerMillionTokens\` and \`completionUsdPerMillionTokens\` (the ${missing} price is missing)`
        : `set both ${MODEL_ENV.promptPrice} and ${MODEL_ENV.completionPrice}, or neither (the ${missing} price is missing)`,
    )
  }
  return null
}

/** Options, then environment, then defaults; throws `ModelConfigError` listing every problem. */
export function resolveModelConfig(options: ModelAdapterOptions = {}): ModelConfig {
  const reader = new ConfigReader(options.env ?? process.env)
  const baseUrl = reader.require<string>('baseUrl', 'baseUrl', options.baseUrl, MODEL_ENV.baseUrl, 'http://127.0.0.1:8080/v1')
  const model = reader.require<string>('model', 'model', options.model, MODEL_ENV.model, 'qwen2.5-7b-instruct')
  const apiKey = reader.read<string>('apiKey', 'apiKey', options.apiKey, MODEL_ENV.apiKey)
  const temperature = reader.read<number>('temperature', 'temperature', options.temperature, MODEL_ENV.temperature, true) ?? CHAT_DEFAULTS.temperature
  const timeoutMs = reader.read<number>('timeoutMs', 'timeoutMs', options.timeoutMs, MODEL_ENV.timeoutMs, true) ?? CHAT_DEFAULTS.timeoutMs
  const retries = reader.read<number>('retries', 'retries', options.retries, null) ?? CHAT_DEFAULTS.retries
  const backoffMs = reader.read<number>('backoffMs', 'backoffMs', options.backoffMs, null) ?? CHAT_DEFAULTS.backoffMs
  const maxRetryWaitMs = reader.read<number>('maxRetryWaitMs', 'maxRetryWaitMs', options.maxRetryWaitMs, null) ?? CHAT_DEFAULTS.maxRetryWaitMs
  const jsonMode = reader.read<boolean>('jsonMode', 'jsonMode', options.jsonMode, null) ?? MODEL_DEFAULTS.jsonMode
  const slots = reader.read<string[]>('slots', 'slots', options.slots, null) ?? MODEL_DEFAULTS.slots
  const prices = readPrices(reader, options)
  const carried = baseUrl === undefined ? null : urlCredentials(baseUrl)
  if (baseUrl !== undefined && carried !== null) {
    const setting = options.baseUrl !== undefined ? 'option `baseUrl`' : `\`${MODEL_ENV.baseUrl}\``
    reader.problems.push(credentialsInUrlMessage(setting, baseUrl, carried, `\`${MODEL_ENV.apiKey}\` (or option \`apiKey\`)`))
  }
  if (reader.problems.length > 0 || baseUrl === undefined || model === undefined) throw new ModelConfigError(reader.problems)
  const endpoint: ModelConfig['endpoint'] = { baseUrl, model, temperature, timeoutMs, retries, backoffMs, maxRetryWaitMs }
  if (apiKey !== undefined && apiKey !== '') endpoint.apiKey = apiKey
  if (options.onRetry !== undefined) endpoint.onRetry = options.onRetry
  return { endpoint, jsonMode, prices, slots: [...slots] }
}

/**
 * The configuration as `run_manifest.json` records it (`model_config`):
 * snake_case, never the API key (only whether one was set), and the base URL
 * without credentials or query.
 */
export function modelConfigRecord(config: ModelConfig): Record<string, unknown> {
  const url = new URL(config.endpoint.baseUrl)
  return {
    api: 'openai-chat-completions',
    base_url: `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`,
    model: config.endpoint.model,
    temperature: config.endpoint.temperature,
    json_mode: config.jsonMode,
    api_key_set: config.endpoint.apiKey !== undefined,
    timeout_ms: config.endpoint.timeoutMs,
    retries: config.endpoint.retries,
    max_retry_wait_ms: config.endpoint.maxRetryWaitMs,
    prices_usd_per_million_tokens:
      config.prices === null ? null : { prompt: config.prices.promptUsdPerMillionTokens, completion: config.prices.completionUsdPerMillionTokens },
  }
}
