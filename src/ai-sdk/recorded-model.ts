/**
 * `recordedModel(model, { cassette })`: any AI SDK language model, its calls
 * recorded into a committed cassette and replayed from it, as an AI SDK
 * middleware (`wrapLanguageModel`). Wrap the model inside your own store; in
 * CI (`CI=true`) calls are replayed by default and none reaches the network.
 */
import { wrapLanguageModel } from 'ai'
import { openCassette } from '../cassette/cassette.js'
import { requestKey } from '../cassette/entry.js'
import type { ModelCallsMode } from '../cassette/mode.js'
import {
  type CallOptions,
  cassetteRequest,
  cassetteResponse,
  expectedKeyOf,
  type GenerateResult,
  generateResultOf,
  probeOf,
  streamOf,
  withoutOwnOptions,
} from './calls.js'
import { RECORDED, type RecordedCalls, type WrappableModel } from './model.js'
import { modelSpecVersion } from './spec-version.js'

/** How a model's calls are recorded and replayed. */
export interface RecordedModelOptions {
  /** The cassette file (JSONL, committed with the tests), e.g. `test/cassettes/memory.jsonl`. */
  cassette: string
  /**
   * `replay` (never call the model; a request with no recording fails), `record` (call it for every request
   * and write the cassette anew) or `auto` (replay what is recorded, record what is missing).
   * `TIMEGROUNDED_MODEL_CALLS` overrides it. @default 'replay' when `CI` is set, else 'auto'
   */
  mode?: ModelCallsMode
  /** Where `TIMEGROUNDED_MODEL_CALLS`, `TIMEGROUNDED_MODEL_CALLS_SESSION` and `CI` are read. @default process.env */
  env?: NodeJS.ProcessEnv
}

interface Wrapped {
  provider: string
  modelId: string
}

function middlewareFor(recording: RecordedCalls) {
  const { cassette } = recording
  const answer = async (params: CallOptions, model: Wrapped, doGenerate: () => PromiseLike<GenerateResult>) => {
    const request = cassetteRequest(model.provider, model.modelId, params)
    const expected = expectedKeyOf(params)
    if (expected !== null) recording.keysSeen.set(expected, requestKey(request))
    return cassette.call({ request, probe: probeOf(params), live: async () => cassetteResponse(await doGenerate(), cassette.file) })
  }
  return {
    specificationVersion: modelSpecVersion(),
    wrapGenerate: async ({ params, model, doGenerate }: { params: CallOptions; model: Wrapped; doGenerate: () => PromiseLike<GenerateResult> }) =>
      generateResultOf(await answer(params, model, doGenerate), model.modelId),
    // A stream is recorded from one generate call and replayed as a stream of whole parts: the answer is the same.
    wrapStream: async ({ params, model, doGenerate }: { params: CallOptions; model: Wrapped; doGenerate: () => PromiseLike<GenerateResult> }) =>
      streamOf(await answer(params, model, doGenerate), model.modelId),
  }
}

/** Strips timegrounded's own provider options before the wrapped model sees them; outermost, so the recorder still reads them. */
const ownOptionsStripped = () => ({
  specificationVersion: modelSpecVersion(),
  transformParams: async ({ params }: { params: CallOptions }) => withoutOwnOptions(params),
})

/**
 * `model` with its calls recorded into and replayed from `options.cassette`. The cassette is keyed by the
 * SHA-256 of each request (provider, model id, messages, tools, settings) and how many times the same request
 * was sent before; it never holds a header, key or URL credential.
 */
export function recordedModel<Model extends WrappableModel>(model: Model, options: RecordedModelOptions): Model {
  const cassette = openCassette(options.cassette, {
    ...(options.mode !== undefined ? { mode: options.mode } : {}),
    ...(options.env ? { env: options.env } : {}),
  })
  if (cassette.mode === 'replay') {
    cassette.load()
    // The SDK builds a `Headers` on every call, and Node loads its fetch implementation at the first one
    // (35-50 ms on Node 20-26): loaded with the model, it is not charged to the first replayed probe.
    void globalThis.Headers
  }
  const { provider, modelId } = model as unknown as Wrapped
  const recording: RecordedCalls = { cassette, provider, modelId, keysSeen: new Map() }
  const recorder = middlewareFor(recording)
  // The recorder reads the probe name; the inner step strips it so the provider never sees timegrounded's options.
  const wrapped = wrapLanguageModel({ model, middleware: [recorder, ownOptionsStripped()] as never })
  Object.defineProperty(wrapped, RECORDED, { value: recording })
  return wrapped as unknown as Model
}
