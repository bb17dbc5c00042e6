// The TIVARQ conversation track against the LLM-backed memory, and next to it
// upstream's hybrid model adapter on the same model, for comparison.
import { modelAdapter } from 'timegrounded'
import { timegroundedSuite } from 'timegrounded/vitest'
import { createLlmMemory, endpointFromEnv } from '../src/memory.js'

// A model call may take seconds and retry: give each store call room.
const timeoutMs = 120_000

timegroundedSuite(() => createLlmMemory(), { name: 'llm-memory', split: 'smoke', track: 'conversation', timeoutMs })
timegroundedSuite(modelAdapter('hybrid', endpointFromEnv()), { name: 'model-hybrid', split: 'smoke', track: 'conversation', timeoutMs })
