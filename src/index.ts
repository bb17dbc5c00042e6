/**
 * timegrounded — the framework-free core. Named exports only; types apart from values.
 */
export {
  SCHEMA_VERSION,
  DATASET_SEED,
  FAMILIES,
  SPLITS,
  OPS,
  STATES,
  SCOPES,
  assertionSchema,
  eventSchema,
  episodeSchema,
  probeSchema,
  answerSchema,
  manifestSchema,
  jsonSchemas,
} from './tivarq/schema.js'
export type { Assertion, TivarqEvent, Episode, Probe, Answer, AnswerState, AnswerValue, Family, Split, Scope, Op, Manifest } from './tivarq/schema.js'
export { resolveGold, canonical, sameAnswer, sameValue } from './tivarq/gold.js'
export type { GoldQuery } from './tivarq/gold.js'
export type {
  MemoryStore,
  StoreFactory,
  StoreCapabilities,
  StoreEvent,
  StoreAssertion,
  StoreQuery,
  StoreAnswer,
  EpisodeContext,
  Track,
} from './adapters/types.js'
export type { PredictionRow, AnsweredRow, UnsupportedRow, ErrorRow, UpdateLag } from './tivarq/results.js'
