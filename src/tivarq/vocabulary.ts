/**
 * The TIVARQ v1 vocabulary: the version, the seed, and the closed lists of
 * families, splits, ops, states, scopes, roles, phases and capabilities. Kept
 * apart from the zod schemas (schema.ts) so that a command that only reads
 * the bundled dataset and scores rows never loads zod.
 */

/** `schema_version` of every TIVARQ v1 row and manifest. */
export const SCHEMA_VERSION = 'tivarq.v1'
/** Seed of the published TIVARQ v1 set; also the default run and bootstrap seed. */
export const DATASET_SEED = 20261001

/** The twelve episode families, in the order the dataset lists them. */
export const FAMILIES = [
  'replacement',
  'reversal',
  'withdrawal',
  'add_vs_replace',
  'scoped_change',
  'future_effective',
  'expiration',
  'retro_correction',
  'delayed_arrival',
  'duplicate_event',
  'third_party_quote',
  'ambiguity',
] as const
/** One of FAMILIES. */
export type Family = (typeof FAMILIES)[number]

/** The dataset splits, smallest first. */
export const SPLITS = ['smoke', 'dev', 'test'] as const
/** One of SPLITS. */
export type Split = (typeof SPLITS)[number]

/** What an assertion does to its slot. */
export const OPS = ['set', 'add', 'withdraw', 'uncertain', 'noop'] as const
/** One of OPS. */
export type Op = (typeof OPS)[number]

/** The five states an answer can be in. */
export const STATES = ['known', 'unknown', 'withdrawn', 'needs_clarification', 'expired'] as const
/** One of STATES. */
export type AnswerState = (typeof STATES)[number]

/** The scopes a fact is held in. */
export const SCOPES = ['personal', 'work'] as const
/** One of SCOPES. */
export type Scope = (typeof SCOPES)[number]

/** What a probe checks: the changed fact, a fact that must not change, or the same slot in the other scope. */
export const ROLES = ['target', 'control', 'scope_control'] as const
/** When a probe is asked relative to its transition. */
export const PHASES = ['pre', 'post', 'check'] as const
/** What a store needs to answer a probe: plain memory, a clock, or history. */
export const CAPABILITIES = ['basic', 'clock', 'history'] as const
/** One of CAPABILITIES. */
export type ProbeCapability = (typeof CAPABILITIES)[number]
