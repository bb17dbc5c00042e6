/**
 * Every numeric option has a range, checked before anything runs, and each
 * refusal names the option, the range and its constant in src/limits.ts:
 * each CLI command's options as commander parses them (the real commands,
 * registered on a real program), and the options of suites, the reporter and
 * property runs as their shells resolve them. A value past any range (1e12
 * resamples, 1e9 repetitions) once reached the run and ended in a typed array
 * that could not be made or an exhausted heap.
 */
import { Command } from 'commander'
import { describe, expect, test } from 'vitest'
import { COMMAND_MODULES } from '../src/cli/command-modules.js'
import { OPTION_RANGES } from '../src/limits.js'
import { resolvePropertyOptions } from '../src/properties/options.js'
import { resolveReporterOptions, resolveSuiteOptions } from '../src/suite/options.js'

/** Every option of every command that takes a number, with the parser commander runs on its text. */
async function numericOptions(): Promise<{ name: string; parse: (text: string) => unknown }[]> {
  const program = new Command()
  for (const load of Object.values(COMMAND_MODULES)) (await load())(program)
  return program.commands.flatMap((command) =>
    command.options
      .filter((option) => /<(n|seed)>$/.test(option.flags))
      .map((option) => ({ name: `${command.name()} ${option.long}`, parse: (text: string) => option.parseArg!(text, undefined) })),
  )
}

const RANGE_OF: Readonly<Record<string, keyof typeof OPTION_RANGES>> = {
  'corpus --size': 'corpusSize',
  'corpus --seed': 'seed',
  'probe --seed': 'seed',
  'probe --resamples': 'resamples',
  'probe --timeout-ms': 'timeoutMs',
  'probe --judge-timeout-ms': 'timeoutMs',
  'run --variant': 'seed',
  'run --repeat': 'repeat',
  'run --seed': 'seed',
  'run --update-polls': 'updatePolls',
  'run --poll-interval-ms': 'pollIntervalMs',
  'run --concurrency': 'concurrency',
  'run --timeout-ms': 'timeoutMs',
  'run --resamples': 'resamples',
  'score --seed': 'seed',
  'score --resamples': 'resamples',
  'compare --seed': 'seed',
  'compare --resamples': 'resamples',
  'generate --variant': 'seed',
  'validate --max-issues': 'maxIssues',
  'fuzz --runs': 'runs',
  'fuzz --max-events': 'maxEvents',
  'fuzz --timeout-ms': 'timeoutMs',
}

describe('the CLI', () => {
  test('every numeric option is one of the ranges, and no other', async () => {
    expect(Object.fromEntries((await numericOptions()).map(({ name }) => [name, RANGE_OF[name] ?? '(no range)']))).toEqual(RANGE_OF)
  })

  test('each refuses the value one past either end, 1e12 and a fraction, naming its constant; each takes both ends', async () => {
    for (const { name, parse } of await numericOptions()) {
      const range = OPTION_RANGES[RANGE_OF[name]!]
      const refusal = new RegExp(`^expected a whole number from ${range.min} to ${range.max} \\(OPTION_RANGES\\.${RANGE_OF[name]}\\)\\.$`)
      const past = [range.min - 1, range.max >= Number.MAX_SAFE_INTEGER ? 1e300 : range.max + 1, 1e12, range.min + 0.5]
      for (const value of past.filter((each) => each < range.min || each > range.max || !Number.isInteger(each))) {
        expect(() => parse(String(value)), `${name} ${value}`).toThrow(refusal)
      }
      expect(() => parse(''), `${name} ''`).toThrow(refusal)
      expect(parse(String(range.min))).toBe(range.min)
      expect(parse(String(range.max))).toBe(range.max)
    }
  })
})

describe('suite, reporter and property options', () => {
  test.each([
    [{ repeats: 1e9 }, '`repeats` is 1000000000: a whole number from 1 to 1000 (OPTION_RANGES.repeat)'],
    [{ concurrency: 65 }, '`concurrency` is 65: a whole number from 1 to 64 (OPTION_RANGES.concurrency)'],
    [{ updatePolls: 1e6 }, '`updatePolls` is 1000000: a whole number from 0 to 1000 (OPTION_RANGES.updatePolls)'],
    [{ timeoutMs: 1e12 }, '`timeoutMs` is 1000000000000: a whole number from 1 to 2147483647 (OPTION_RANGES.timeoutMs)'],
    [{ pollIntervalMs: Number.POSITIVE_INFINITY }, '`pollIntervalMs` is Infinity: a whole number from 0 to 2147483647 (OPTION_RANGES.pollIntervalMs)'],
  ])('a suite with %j is refused', (options, message) => {
    expect(() => resolveSuiteOptions(options)).toThrow(message)
  })

  test('the reporter refuses 1e12 resamples, and a seed past 2^53 that could not be typed back', () => {
    expect(() => resolveReporterOptions({ resamples: 1e12 }, 'timegrounded()')).toThrow(
      '`resamples` is 1000000000000: a whole number from 500 to 1000000 (OPTION_RANGES.resamples)',
    )
    expect(() => resolveReporterOptions({ seed: 2 ** 60 }, 'timegrounded()')).toThrow('(OPTION_RANGES.seed)')
  })

  test('a property run refuses 1e12 runs and a 41-event timeline', () => {
    expect(() => resolvePropertyOptions({ runs: 1e12 }, 'timegroundedProperties()', {})).toThrow(
      '`runs` is 1000000000000: a whole number from 1 to 1000000 (OPTION_RANGES.runs)',
    )
    expect(() => resolvePropertyOptions({ maxEvents: 41 }, 'timegroundedProperties()', {})).toThrow('(OPTION_RANGES.maxEvents)')
  })
})
