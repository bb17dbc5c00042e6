/**
 * JSON text written exactly as the upstream Python generator writes it, so the
 * dataset files (and their SHA-256) come out byte for byte:
 * `json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(',', ':'))`
 * for rows and `json.dumps(value, indent=2, sort_keys=True)` for the manifest;
 * and as the upstream harness writes its result files: `json.dumps(row,
 * ensure_ascii=False)` for prediction rows, `json.dumps(report, indent=2)` for
 * reports (keys in the object's own order).
 *
 * Numbers: a safe integer prints as an integer (Python `int`); any other finite
 * number prints as Python's float `repr` (`0.1`, `1e-07`, `1e+16`), which
 * differs from JavaScript's `String(number)`. NaN and infinities are refused
 * (Python would write the non-JSON tokens `NaN`/`Infinity`).
 */
import { TimegroundedError } from '../errors.js'

/** A value `canonicalJsonLine` and `prettyJson` can write. */
export type JsonValue = null | boolean | number | bigint | string | readonly JsonValue[] | { readonly [key: string]: JsonValue | undefined }

/** Options shared by the writers. */
export interface CanonicalJsonOptions {
  /**
   * Escape every character outside printable ASCII as `\uXXXX` (Python's
   * `ensure_ascii=True`, its default). The dataset rows keep non-ASCII as-is.
   * @default false
   */
  ensureAscii?: boolean
  /**
   * Sort object keys by code point (Python's `sort_keys=True`); false keeps
   * each object's own key order, as `json.dumps` does by default.
   * @default true
   */
  sortKeys?: boolean
}

/** The codes of `CanonicalJsonError`, each with what it means. */
export interface CanonicalJsonErrorCodes {
  /** A value canonical JSON cannot write. */
  CANONICAL_JSON_UNSUPPORTED: 'CanonicalJsonError'
}

/** Raised for a value JSON cannot carry (NaN, a function, a cycle...); code `CANONICAL_JSON_UNSUPPORTED`, names the path. */
export class CanonicalJsonError extends TimegroundedError<keyof CanonicalJsonErrorCodes> {
  /** Where in the value the problem is, e.g. `$.events[2].value`. */
  readonly path: string
  constructor(path: string, detail: string) {
    super('CANONICAL_JSON_UNSUPPORTED', `Cannot write ${path} as JSON: ${detail}. Pass plain objects, arrays, strings, finite numbers, booleans and null.`)
    this.path = path
  }
}

/**
 * One dataset row: recursively sorted keys (by code point, like Python's
 * `sort_keys`), `,` and `:` with no spaces, non-ASCII kept as-is. No newline.
 */
export function canonicalJsonLine(value: unknown, options: CanonicalJsonOptions = {}): string {
  return write(value, stateOf(options, 'compact'))
}

/**
 * One line as Python's `json.dumps(value, ensure_ascii=False)` writes it: the
 * object's own key order (unless `sortKeys`), `, ` and `: ` between items, as
 * the upstream harness writes its prediction rows. No newline.
 */
export function pythonJsonLine(value: unknown, options: CanonicalJsonOptions = {}): string {
  return write(value, stateOf({ ...options, sortKeys: options.sortKeys ?? false }, 'line'))
}

/**
 * Pretty form, as Python `json.dumps(value, indent=2, sort_keys=True)` plus a
 * trailing newline: items separated by `,` + newline, `": "` after keys, empty
 * lists and objects as `[]` and `{}`. Non-ASCII kept as-is unless `ensureAscii`.
 */
export function prettyJson(value: unknown, options: CanonicalJsonOptions = {}): string {
  return `${write(value, stateOf(options, 'indented'))}\n`
}

interface WriteState {
  ensureAscii: boolean
  sortKeys: boolean
  indent: string | null
  /** Between items on one line (no indent). */
  itemSeparator: string
  /** Between a key and its value. */
  keySeparator: string
  depth: number
  seen: Set<object>
  /**
   * The keys and indexes from the top value down to the one being written:
   * the path an error names is spelled from them only when there is an error,
   * not for every value written.
   */
  steps: (string | number)[]
}

/** Python's separators: `(',', ':')` compact; `(', ', ': ')` its one-line default; `(',', ': ')` with an indent. */
const LAYOUTS = {
  compact: { indent: null, itemSeparator: ',', keySeparator: ':' },
  line: { indent: null, itemSeparator: ', ', keySeparator: ': ' },
  indented: { indent: '  ', itemSeparator: ',', keySeparator: ': ' },
} as const

function stateOf(options: CanonicalJsonOptions, layout: keyof typeof LAYOUTS): WriteState {
  return { ensureAscii: options.ensureAscii ?? false, sortKeys: options.sortKeys ?? true, ...LAYOUTS[layout], depth: 0, seen: new Set(), steps: [] }
}

/** The path of the value being written, e.g. `$.events[2].value`. */
function pathOf(state: WriteState): string {
  return `$${state.steps.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('')}`
}

function write(value: unknown, state: WriteState): string {
  if (value === null) return 'null'
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false'
    case 'string':
      return quote(value, state.ensureAscii)
    case 'number':
      return writeNumber(value, state)
    case 'bigint':
      return value.toString()
    case 'object':
      break
    default:
      throw new CanonicalJsonError(pathOf(state), `a ${typeof value} has no JSON form`)
  }
  const container = value as object
  if (state.seen.has(container)) throw new CanonicalJsonError(pathOf(state), 'the value contains itself (a cycle)')
  state.seen.add(container)
  state.depth++
  try {
    return Array.isArray(container) ? writeArray(container, state) : writeObject(container as Record<string, unknown>, state)
  } finally {
    state.depth--
    state.seen.delete(container)
  }
}

function writeArray(items: readonly unknown[], state: WriteState): string {
  const written: string[] = []
  for (let index = 0; index < items.length; index++) {
    const item = items[index]
    state.steps.push(index)
    written.push(write(item === undefined ? null : item, state))
    state.steps.pop()
  }
  return join('[', written, ']', state)
}

function writeObject(record: Record<string, unknown>, state: WriteState): string {
  // Python drops nothing, but JSON.stringify drops undefined members; a row
  // with an optional field left undefined must not print it.
  const keys = Object.keys(record).filter((key) => record[key] !== undefined)
  if (state.sortKeys) keys.sort(compareCodePoints)
  const members: string[] = []
  for (const key of keys) {
    state.steps.push(key)
    members.push(`${quote(key, state.ensureAscii)}${state.keySeparator}${write(record[key], state)}`)
    state.steps.pop()
  }
  return join('{', members, '}', state)
}

/** Items of a container written at `state.depth` (its items' depth; the container's own is one less). */
function join(open: string, items: string[], close: string, state: WriteState): string {
  if (items.length === 0) return open + close
  if (state.indent === null) return open + items.join(state.itemSeparator) + close
  const pad = state.indent.repeat(state.depth)
  const closePad = state.indent.repeat(state.depth - 1)
  return `${open}\n${pad}${items.join(`,\n${pad}`)}\n${closePad}${close}`
}

/** Python sorts `str` keys by code point; JavaScript's default sort compares UTF-16 units. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const ca = a.codePointAt(i) ?? 0
    const cb = b.codePointAt(i) ?? 0
    if (ca !== cb) return ca - cb
    if (ca > 0xffff) i++
  }
  return a.length - b.length
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
}

// Python's ESCAPE (ensure_ascii=False) touches only C0 controls, `"` and `\`;
// U+2028/U+2029 and DEL pass through. ESCAPE_ASCII also escapes anything
// outside printable ASCII, astral characters as surrogate pairs.
const ESCAPE_UNICODE = /["\\\u0000-\u001f]/g
const ESCAPE_ASCII = /["\\]|[^ -~]/g
// The same sets, to test a string (no `g`, so no lastIndex state): most need no escape at all.
const NEEDS_ESCAPE_UNICODE = /["\\\u0000-\u001f]/
const NEEDS_ESCAPE_ASCII = /["\\]|[^ -~]/

function quote(text: string, ensureAscii: boolean): string {
  if (!(ensureAscii ? NEEDS_ESCAPE_ASCII : NEEDS_ESCAPE_UNICODE).test(text)) return `"${text}"`
  const pattern = ensureAscii ? ESCAPE_ASCII : ESCAPE_UNICODE
  return `"${text.replace(pattern, (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`
}

function writeNumber(value: number, state: WriteState): string {
  if (!Number.isFinite(value)) throw new CanonicalJsonError(pathOf(state), `${value} is not a finite number`)
  if (Number.isSafeInteger(value)) return String(value === 0 ? 0 : value)
  return pythonFloatRepr(value)
}

/**
 * Python's `repr(float)`: the shortest round-tripping digits, fixed notation
 * when the decimal exponent is in [-4, 16), otherwise `d.ddde±XX`.
 */
export function pythonFloatRepr(value: number): string {
  if (Object.is(value, -0)) return '-0.0'
  if (value === 0) return '0.0'
  const sign = value < 0 ? '-' : ''
  // toExponential() with no argument yields the shortest round-trip digits.
  const [mantissa = '', exponentText = '0'] = Math.abs(value).toExponential().split('e')
  const digits = mantissa.replace('.', '')
  const exponent = Number(exponentText)
  if (exponent < -4 || exponent >= 16) {
    const rest = digits.length > 1 ? `.${digits.slice(1)}` : ''
    const expDigits = String(Math.abs(exponent)).padStart(2, '0')
    return `${sign}${digits[0]}${rest}e${exponent < 0 ? '-' : '+'}${expDigits}`
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`
  const whole = digits.length > exponent + 1 ? digits.slice(0, exponent + 1) : digits.padEnd(exponent + 1, '0')
  const fraction = digits.length > exponent + 1 ? digits.slice(exponent + 1) : '0'
  return `${sign}${whole}.${fraction}`
}

// ─── The quick one-line writer ──────────────────────────────────────────────

/** Nesting the quick writer goes to before it leaves a value to the full one (a row's values nest two deep). */
const QUICK_DEPTH = 32

/** Thrown inside the quick writer when a value needs the full writer; caught in this module, never seen outside it. */
const LEAVE_TO_FULL_WRITER = new Error('left to the full writer')

/**
 * `pythonJsonLine(record)` of a record whose keys are among `order`, written in
 * that order (a key whose value is undefined is left out), straight into one
 * string: no intermediate object and none of the full writer's path and cycle
 * bookkeeping, which a prediction row, written 900 times a run, never needs.
 * Null when the record carries a key outside `order`, or a value the full
 * writer would refuse or that nests deep (a non-finite number, a function, a
 * cycle): the caller then writes it with `pythonJsonLine`, whose error names
 * the path. `order` holds plain keys that need no escaping.
 */
export function pythonJsonLineInOrder(record: Record<string, unknown>, order: readonly string[]): string | null {
  let line = '{'
  let written = 0
  try {
    for (const key of order) {
      const value = record[key]
      if (value === undefined) continue
      line += `${written === 0 ? '"' : ', "'}${key}": ${quickValue(value, 0)}`
      written++
    }
  } catch (error) {
    if (error === LEAVE_TO_FULL_WRITER) return null
    throw error
  }
  // Every enumerable key counted: one more than those written is a key outside `order` (or one left undefined).
  let keys = 0
  for (const _ in record) keys++
  return keys === written ? `${line}}` : null
}

/** One value as `pythonJsonLine` writes it (its `line` layout, own key order, non-ASCII kept). */
function quickValue(value: unknown, depth: number): string {
  if (value === null) return 'null'
  switch (typeof value) {
    case 'string':
      return quote(value, false)
    case 'number':
      return quickNumber(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'bigint':
      return value.toString()
    case 'object':
      break
    default:
      throw LEAVE_TO_FULL_WRITER
  }
  if (depth >= QUICK_DEPTH) throw LEAVE_TO_FULL_WRITER
  if (Array.isArray(value)) {
    let text = '['
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index]
      text += `${index === 0 ? '' : ', '}${quickValue(item === undefined ? null : item, depth + 1)}`
    }
    return `${text}]`
  }
  const record = value as Record<string, unknown>
  let text = '{'
  let first = true
  for (const key of Object.keys(record)) {
    const member = record[key]
    if (member === undefined) continue
    text += `${first ? '' : ', '}${quote(key, false)}: ${quickValue(member, depth + 1)}`
    first = false
  }
  return `${text}}`
}

/**
 * `writeNumber` without its error path. Between 1e-4 and 2^53 a number that is
 * not a whole one prints the same shortest digits in fixed notation in both
 * languages, so JavaScript's own `String` is Python's `repr` there.
 */
function quickNumber(value: number): string {
  if (Number.isSafeInteger(value)) return String(value === 0 ? 0 : value)
  if (!Number.isFinite(value)) throw LEAVE_TO_FULL_WRITER
  const magnitude = value < 0 ? -value : value
  return magnitude >= 1e-4 && magnitude < 2 ** 53 ? String(value) : pythonFloatRepr(value)
}
