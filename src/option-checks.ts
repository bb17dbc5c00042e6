/**
 * Options checked when they are given (a config loading, a suite being
 * declared): a zod schema says what is valid, `checkOptions` turns every zod
 * issue into one line naming the option, the bad value and the valid choices,
 * with "did you mean" for a name close to a valid one.
 */
import { closestMatch } from 'leven'
import { z } from 'zod'
import { TimegroundedError } from './errors.js'
import { describeRange, OPTION_RANGES, type OptionRangeName } from './limits.js'

/**
 * The base of every option refusal that names each bad option, its value and
 * the valid choices: `ReporterOptionError` (`REPORTER_OPTION_INVALID`),
 * `SuiteOptionError` (`SUITE_OPTION_INVALID`), `TimeGroundedOptionError`
 * (`TIME_GROUNDED_OPTION_INVALID`), `PropertyOptionError`
 * (`PROPERTY_OPTION_INVALID`); each declares its code beside it, in its own layer.
 */
export abstract class OptionError<Code extends string = string> extends TimegroundedError<Code> {
  protected constructor(code: Code, message: string) {
    super(code, message)
    // The message is the whole story (option, value, choices): no stack into the harness.
    this.stack = `${this.name} [${code}]: ${message}`
  }
}

/** The valid name closest to `given`, when it is close enough to be a slip (a typo, a dropped suffix). */
export function didYouMean(given: string, choices: readonly string[]): string | undefined {
  return closestMatch(given, choices, { maxDistance: Math.max(2, Math.floor(given.length / 3)) }) ?? undefined
}

/** `` `a` ``, `` `b` `` and `` `c` ``: choices as a reader scans them. */
function listChoices(choices: readonly string[]): string {
  return choices.map((choice) => `\`${choice}\``).join(', ')
}

/**
 * The error of a schema whose keys or values come from a fixed list (option
 * names, metric names, families): for each bad name, one line saying what it
 * is not, the closest valid name, and every valid one. `kind` is what one of
 * them is called ("a metric"). `checkOptions` puts the option's path in front.
 */
export function namedChoices(kind: string, choices: readonly string[]): z.core.$ZodErrorMap {
  return (issue) => {
    const bad = issue.code === 'unrecognized_keys' ? issue.keys : issue.code === 'invalid_value' ? [String(issue.input)] : null
    if (bad === null) return undefined
    return bad
      .map((name) => {
        const close = didYouMean(name, choices)
        return `not ${kind}${close === undefined ? '' : `; did you mean \`${close}\`?`} Valid: ${listChoices(choices)}.`
      })
      .join('\n')
  }
}

/** A numeric option of the range `OPTION_RANGES[name]`: every refusal says the range and names the constant. */
export function rangedNumber(name: OptionRangeName): z.ZodNumber {
  const range = OPTION_RANGES[name]
  const message = describeRange(name)
  const number = z.number(message).min(range.min, message).max(range.max, message)
  return range.integer ? number.int(message) : number
}

/** A path as options are written: `regression.tolerance`, `families[2]`. */
function optionPath(path: readonly PropertyKey[], root: string): string {
  let text = root
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : text === '' ? String(key) : `.${String(key)}`
  return text === '' ? '(the options)' : text
}

function showValue(value: unknown): string {
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'number' || value === undefined) return String(value)
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/**
 * A value that fits no branch of a union: when it has the shape of exactly
 * one branch (that branch's issues all lie inside it), report that branch's
 * issues, which name the bad part; otherwise the union's own message.
 */
function expandUnion(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union') return [issue]
  const shaped = issue.errors.filter((branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0))
  if (shaped.length !== 1) return [issue]
  return shaped[0]!.flatMap((inner) => expandUnion({ ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue))
}

/**
 * Parse `value` with `schema`; on failure throw the error `fail` makes of a
 * message headed by `where` (e.g. "timegrounded(options) in vitest.config"),
 * one line per issue: `` `thresholds.staleValueLeakage`: not a metric; … `` or
 * `` `regression.tolerance` is -1: … ``. `root` prefixes every path
 * (e.g. `timeGrounded` for nested options).
 */
export function checkOptions<T extends z.ZodType>(schema: T, value: unknown, where: string, fail: (message: string) => OptionError, root = ''): z.output<T> {
  const parsed = schema.safeParse(value ?? {}, { reportInput: true })
  if (parsed.success) return parsed.data
  const lines = parsed.error.issues.flatMap(expandUnion).flatMap((issue) => {
    // One line per unknown key, named by its full path (`thresholds.staleValueLeakage`).
    if (issue.code === 'unrecognized_keys') {
      const reasons = issue.message.split('\n')
      return issue.keys.map((key, i) => `\`${optionPath([...issue.path, key], root)}\`: ${reasons[i] ?? reasons[0]}`)
    }
    return [`\`${optionPath(issue.path, root)}\` is ${showValue(issue.input)}: ${issue.message}`]
  })
  throw fail(`${where}: invalid ${lines.length === 1 ? 'option' : 'options'}:\n${lines.map((line) => `  ${line}`).join('\n')}`)
}
