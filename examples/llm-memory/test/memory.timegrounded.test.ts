// The TIVARQ conversation track against the LLM-backed memory, and next to it
// upstream's hybrid model adapter on the same model, for comparison. Every
// model call is recorded in test/cassettes/: CI (CI=true) replays them, with
// no key and no network; TIMEGROUNDED_MODEL_CALLS=record records them anew.
import { fileURLToPath } from 'node:url'
import { modelAdapter, recordedModel } from 'timegrounded/ai-sdk'
import { timegroundedSuite } from 'timegrounded/vitest'
import { createLlmMemory, modelFromEnv } from '../src/memory.js'

const cassette = (name: string) =>
  process.env.LLM_MEMORY_CASSETTES ? `${process.env.LLM_MEMORY_CASSETTES}/${name}` : fileURLToPath(new URL(`./cassettes/${name}`, import.meta.url))

// A model call may take seconds and retry: give each store call room.
const timeoutMs = 120_000
const model = recordedModel(modelFromEnv(), { cassette: cassette('llm-memory.jsonl') })

timegroundedSuite(() => createLlmMemory(model), { name: 'llm-memory', split: 'smoke', track: 'conversation', timeoutMs })
timegroundedSuite(modelAdapter('hybrid', { model: modelFromEnv(), cassette: cassette('model-hybrid.jsonl') }), {
  name: 'model-hybrid',
  split: 'smoke',
  track: 'conversation',
  timeoutMs,
})
