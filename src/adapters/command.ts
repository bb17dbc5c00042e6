/**
 * An adapter command for `tivarq.adapter.v1`: what to run (`commandAdapter`),
 * checked when it is made, and how it is named in messages. Starting and
 * talking to the process is `adapter-process.ts`, loaded only by what starts
 * one, so a run of an in-process store never loads Node's process machinery.
 */
import { AdapterUsageError, showArgument, type AdapterUsageCode } from './errors.js'

/** Default time a single call may take before the process is killed and restarted. @default 30000 */
export const DEFAULT_TIMEOUT_MS = 30_000
/** How to start an adapter process. Made by `commandAdapter`. */
export interface CommandAdapterSpec {
  readonly kind: 'command'
  /** The command and its arguments, run without a shell. */
  readonly argv: readonly string[]
  /** Working directory of the process. @default process.cwd() */
  readonly cwd?: string
  /** Extra environment variables, added to the harness's own. */
  readonly env?: Record<string, string>
  /** Per-call timeout in ms (overrides the pool's). @default the pool's `timeoutMs` (30000) */
  readonly timeoutMs?: number
}

/** An adapter process to run, e.g. `commandAdapter(['python3', 'my_adapter.py'])`. */
export function commandAdapter(argv: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): CommandAdapterSpec {
  const bad = (message: string): never => {
    throw new AdapterUsageError('ADAPTER_COMMAND_INVALID', message)
  }
  if (!Array.isArray(argv) || argv.length === 0 || typeof argv[0] !== 'string' || argv[0] === '') {
    bad(
      `commandAdapter(argv) needs a non-empty command as an array of strings; got ${showArgument(argv)}. Pass e.g. commandAdapter(['python3', 'adapter.py']).`,
    )
  }
  const notString = argv.findIndex((arg) => typeof arg !== 'string')
  if (notString >= 0)
    bad(
      `commandAdapter(argv): argv[${notString}] is ${showArgument(argv[notString])}, not a string; every argument must be a string (the command runs without a shell).`,
    )
  checkTimeoutMs(options.timeoutMs, 'commandAdapter', 'ADAPTER_COMMAND_INVALID')
  if (options.cwd !== undefined && (typeof options.cwd !== 'string' || options.cwd === ''))
    bad(`commandAdapter option \`cwd\` must be a directory path; got ${showArgument(options.cwd)}.`)
  if (options.env !== undefined) {
    const wrong =
      options.env === null || typeof options.env !== 'object'
        ? []
        : Object.entries(options.env)
            .filter(([, value]) => typeof value !== 'string')
            .map(([key]) => key)
    if (options.env === null || typeof options.env !== 'object' || Array.isArray(options.env))
      bad(`commandAdapter option \`env\` must be an object of strings, e.g. { API_KEY: '…' }; got ${showArgument(options.env)}.`)
    if (wrong.length > 0)
      bad(
        `commandAdapter option \`env\`: ${wrong.map((key) => `\`${key}\``).join(', ')} must be ${wrong.length === 1 ? 'a string' : 'strings'}; convert ${wrong.length === 1 ? 'it' : 'them'} with String().`,
      )
  }
  const spec: { -readonly [K in keyof CommandAdapterSpec]: CommandAdapterSpec[K] } = { kind: 'command', argv: Object.freeze([...argv]) }
  if (options.cwd !== undefined) spec.cwd = options.cwd
  if (options.env !== undefined) spec.env = { ...options.env }
  if (options.timeoutMs !== undefined) spec.timeoutMs = options.timeoutMs
  return Object.freeze(spec)
}

/** A `timeoutMs` option, checked: undefined (use the default) or a positive, finite number of ms; else `AdapterUsageError` with `code`, naming `where` the option was given. */
export function checkTimeoutMs(value: number | undefined, where: string, code: AdapterUsageCode): number | undefined {
  if (value === undefined || (typeof value === 'number' && Number.isFinite(value) && value > 0)) return value
  throw new AdapterUsageError(
    code,
    `${where} option \`timeoutMs\` must be a positive number of milliseconds; got ${showArgument(value)}. Pass e.g. \`timeoutMs: 30000\`, or leave it out for the default (${DEFAULT_TIMEOUT_MS}).`,
  )
}

/** The command as a user would type it (arguments quoted for a POSIX shell when needed), for messages. */
export function describeCommand(argv: readonly string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ')
}
