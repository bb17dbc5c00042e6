/**
 * `timegrounded/ai-sdk`: memories built on the AI SDK (`ai` 6 or 7, an
 * optional peer), tested in CI without a key or a network. `recordedModel`
 * records a model's calls into a committed cassette and replays them.
 */
export { recordedModel, type RecordedModelOptions } from './recorded-model.js'
export type { WrappableModel } from './model.js'
export { flushCassettes, modelCallCounts, type ModelCallCounts } from '../cassette/cassette.js'
export { CassetteError, type CassetteErrorCodes } from '../cassette/errors.js'
export { MODEL_CALLS_ENV, MODEL_CALLS_MODES, MODEL_CALLS_SESSION_ENV, type ModelCallsMode } from '../cassette/mode.js'
export { modelAdapter, type AiSdkModelAdapter, type AiSdkModelAdapterOptions } from './model-adapter.js'
export { modelAgent, modelJudgeOf as modelJudge, type AiSdkProbeModelOptions } from './time-grounded.js'
