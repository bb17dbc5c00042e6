/**
 * Every bound timegrounded puts on what enters it from outside (a store, an
 * adapter or agent process, a model endpoint, the user's options), in one
 * place: each check names its constant, and docs/faults.md lists them. The
 * bounds are far above what a working store, file or option needs; they exist
 * so that a hostile or broken one becomes a located error, never an exhausted
 * heap, a sum that overflows or a typed array that cannot be made.
 */

/**
 * Longest answer a store may give, in characters: a string value, the characters of a list's strings
 * together, and `raw_answer` on its own. A memory store's answer is a slot value; one this long is an
 * invalid answer, recorded as an error row naming its size, so that no row, file or page holds it.
 */
export const MAX_ANSWER_CHARS = 64 * 1024

/**
 * Longest reply line an adapter or agent process may write, in characters. A line over it is counted
 * and discarded as it arrives (never held whole) and its call fails with its length; it allows an
 * answer of `MAX_ANSWER_CHARS` and a raw answer as long, each written with every character escaped.
 */
export const MAX_REPLY_LINE_CHARS = 1024 * 1024

/** Largest body a model endpoint may send for one chat completion, in bytes; a longer one is refused as it is read. */
export const MAX_MODEL_REPLY_BYTES = 4 * 1024 * 1024

/**
 * Most tokens one answer may report (`usage.prompt_tokens`, `usage.completion_tokens`, each a whole
 * number from 0). Bounded so that a run's totals stay exact in a double: a billion tokens for each of a
 * million answers is still below 2^53.
 */
export const MAX_REPORTED_TOKENS = 1_000_000_000

/** Highest cost one answer may report (`cost_usd`, a finite number from 0), in US dollars; bounded so that a run's total cannot overflow. */
export const MAX_REPORTED_COST_USD = 1_000_000

/** A numeric option's range: the smallest and largest value accepted, and whether it must be a whole number. */
export interface OptionRange {
  readonly min: number
  readonly max: number
  readonly integer: boolean
}

/** The longest delay a timer can wait (2^31 − 1 ms, about 24.8 days): Node fires a longer one at once. */
const TIMER_MAX_MS = 2_147_483_647

/**
 * The range of every numeric option of the CLI, the suites, the Vitest plugin, the Jest reporter and
 * the property runner, checked before anything runs; a refusal names the option, the range and the
 * constant (`OPTION_RANGES.resamples`). docs/cli.md lists them.
 */
export const OPTION_RANGES = {
  /** Bootstrap resamples per interval (`--resamples`, `resamples`): each needs a slot in a typed array; fewer than 500 make unstable intervals. */
  resamples: { min: 500, max: 1_000_000, integer: true },
  /** Repetitions of the whole run (`run --repeat`, a suite's `repeats`): each holds a full set of rows. */
  repeat: { min: 1, max: 1_000, integer: true },
  /** Property-test runs (`fuzz --runs`, `runs`). */
  runs: { min: 1, max: 1_000_000, integer: true },
  /** Most events in one generated timeline (`fuzz --max-events`, `maxEvents`): the generator's episodes hold at most 40. */
  maxEvents: { min: 1, max: 40, integer: true },
  /** Episodes in flight at once (`--concurrency`, `concurrency`): each may be a process of its own. */
  concurrency: { min: 1, max: 64, integer: true },
  /** Re-asks of a wrong post-change answer (`--update-polls`, `updatePolls`): each is one more store call per probe. */
  updatePolls: { min: 0, max: 1_000, integer: true },
  /** Wait before each re-ask, in whole ms (`--poll-interval-ms`, `pollIntervalMs`). */
  pollIntervalMs: { min: 0, max: TIMER_MAX_MS, integer: true },
  /** Time one call may take, in whole ms (`--timeout-ms`, `--judge-timeout-ms`, `timeoutMs`, `agentTimeoutMs`, `judgeTimeoutMs`). */
  timeoutMs: { min: 1, max: TIMER_MAX_MS, integer: true },
  /** A seed of the bootstrap or of a variant (`--seed`, `--variant`, `seed`, `variant`): beyond 2^53 a seed cannot be printed and typed back exactly. */
  seed: { min: 0, max: Number.MAX_SAFE_INTEGER, integer: true },
  /** A property run's seed (`fuzz --seed`, `seed` of `timegroundedProperties`): fast-check takes a 32-bit one. */
  propertySeed: { min: -(2 ** 31), max: 2 ** 31 - 1, integer: true },
  /** Issues `validate` lists (`--max-issues`); the rest are counted. */
  maxIssues: { min: 1, max: 100_000, integer: true },
  /** Questions of a generated time-grounded corpus (`corpus --size`, `size`). */
  corpusSize: { min: 1, max: 100_000, integer: true },
} as const satisfies Record<string, OptionRange>

/** The name of an option range, as its refusals name it. */
export type OptionRangeName = keyof typeof OPTION_RANGES

/** Why `value` is outside the range `name`, or null when it is inside: `a whole number from 500 to 1000000 (OPTION_RANGES.resamples)`. */
export function rangeProblem(name: OptionRangeName, value: unknown): string | null {
  const range: OptionRange = OPTION_RANGES[name]
  const inside = typeof value === 'number' && (range.integer ? Number.isInteger(value) : Number.isFinite(value)) && value >= range.min && value <= range.max
  return inside ? null : describeRange(name)
}

/** What the range `name` allows, naming its constant. */
export function describeRange(name: OptionRangeName): string {
  const range: OptionRange = OPTION_RANGES[name]
  return `${range.integer ? 'a whole number' : 'a number'} from ${range.min} to ${range.max} (OPTION_RANGES.${name})`
}

/**
 * Longest text of a row the HTML page shows (an answer's value or each of a list's strings, its raw
 * answer, the expected and old values, an error): a longer one is cut, its length and a fingerprint
 * said, so that the page stays small whatever a predictions file holds.
 */
export const PAGE_VALUE_CHARS = 200

/**
 * Largest dataset file read whole (a manifest or a split file), in bytes; the v1 split files are under
 * 1 MB. A larger one is refused before a byte of it is read.
 */
export const MAX_DATASET_FILE_BYTES = 256 * 1024 * 1024

/** Longest row of a dataset's split file, in characters (a v1 episode line is a few KB). */
export const MAX_DATASET_LINE_CHARS = 1024 * 1024

/**
 * Longest row of a predictions file, in characters. A predictions file has no size limit (it is read a
 * line at a time, so a file of any size takes the memory of its longest row); each row does, so that
 * one line cannot take that memory either. It allows rows far beyond what the harness writes (answers
 * are cut at `MAX_ANSWER_CHARS`), such as other tools' 10 MB answers.
 */
export const MAX_PREDICTION_LINE_CHARS = 64 * 1024 * 1024

/** How deep a JSON row's arrays and objects may nest; TIVARQ rows nest 4 levels, a prediction row 3. */
export const MAX_JSON_DEPTH = 64

/**
 * Largest JSON document read whole (a baseline file, a shard file), in bytes. A shard holds its probes'
 * rows, a few MB for the whole v1 test split; a larger file is refused before a byte of it is read.
 */
export const MAX_JSON_DOCUMENT_BYTES = 256 * 1024 * 1024

/**
 * Longest entry of a cassette, in characters: an entry holds one model response, whose body is refused
 * over `MAX_MODEL_REPLY_BYTES`, so four times that leaves room for JSON's escaping of any text.
 */
export const MAX_CASSETTE_LINE_CHARS = 4 * MAX_MODEL_REPLY_BYTES

/** Largest cassette file, in bytes: every entry is held in memory while a run replays it. */
export const MAX_CASSETTE_FILE_BYTES = 256 * 1024 * 1024
