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

/**
 * The range of each numeric option of the CLI, the Vitest plugin and the Jest reporter that sizes
 * work or memory, checked before anything runs.
 */
export const OPTION_RANGES = {
  /** Bootstrap resamples per interval: each needs a slot in a typed array. */
  resamples: { min: 1, max: 1_000_000, integer: true },
  /** Repetitions of the whole run: each holds a full set of rows. */
  repeat: { min: 1, max: 1_000, integer: true },
  /** Property-test runs. */
  runs: { min: 1, max: 1_000_000, integer: true },
} as const satisfies Record<string, OptionRange>

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
