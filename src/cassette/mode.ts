/**
 * Which way recorded calls go: `record` (call the model, write every answer
 * anew), `replay` (never call it; a request with no recording fails) or `auto`
 * (replay what is recorded, record what is missing). One environment variable
 * overrides the option; under CI the default is replay, so CI never spends.
 */
import { CassetteError } from './errors.js'

/** How a cassette's calls go: `record` anew, `replay` only, or `auto` (replay what is recorded, record the rest). */
export type ModelCallsMode = 'record' | 'replay' | 'auto'

/** The modes, in the order they are listed to a user. */
export const MODEL_CALLS_MODES: readonly ModelCallsMode[] = ['record', 'replay', 'auto']

/** The environment variable that overrides the mode of every cassette in a run. */
export const MODEL_CALLS_ENV = 'TIMEGROUNDED_MODEL_CALLS'

/** The environment variable naming the recording session: every worker of one run shares it. */
export const MODEL_CALLS_SESSION_ENV = 'TIMEGROUNDED_MODEL_CALLS_SESSION'

const isMode = (value: unknown): value is ModelCallsMode => typeof value === 'string' && (MODEL_CALLS_MODES as readonly string[]).includes(value)

/** True when `CI` is set to anything but an empty string, `0` or `false`, as CI services set it. */
function underCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const ci = env.CI
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false'
}

/** The mode in force: the environment variable, else the option, else replay under CI and auto elsewhere. */
export function resolveModelCallsMode(
  option: ModelCallsMode | undefined,
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ModelCallsMode {
  const fromEnv = env[MODEL_CALLS_ENV]
  if (fromEnv !== undefined && fromEnv !== '') {
    if (isMode(fromEnv)) return fromEnv
    throw new CassetteError('CASSETTE_MODE_INVALID', `${MODEL_CALLS_ENV} is ${JSON.stringify(fromEnv)}; expected one of ${MODEL_CALLS_MODES.join(', ')}`, file)
  }
  if (option !== undefined) {
    if (isMode(option)) return option
    throw new CassetteError('CASSETTE_MODE_INVALID', `option \`mode\` is ${JSON.stringify(option)}; expected one of ${MODEL_CALLS_MODES.join(', ')}`, file)
  }
  return underCi(env) ? 'replay' : 'auto'
}
