/**
 * `withTimegrounded(config, options)`, the Jest config helper, in both its
 * builds (the ESM module and the CommonJS bundle a `jest.config.js` requires):
 * what it adds, what it keeps, and the options it refuses as the config loads.
 * Needs dist/ (npm test builds it first).
 */
import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'
import { withTimegrounded } from '../../src/jest/config.js'
import { ReporterOptionError } from '../../src/suite/options.js'

const require = createRequire(import.meta.url)

describe('withTimegrounded', () => {
  test("adds the reporter after Jest's default, the watch key, and watch-ignore patterns for what a run writes", () => {
    const options = { thresholds: { staleValueLeakageRate: { max: 0.05 } } }
    expect(withTimegrounded({ preset: 'ts-jest', testEnvironment: 'node' }, options)).toEqual({
      preset: 'ts-jest',
      testEnvironment: 'node',
      reporters: ['default', ['timegrounded/jest/reporter', options]],
      watchPlugins: ['timegrounded/jest/watch-plugin'],
      watchPathIgnorePatterns: ['<rootDir>/\\.timegrounded/', '<rootDir>/timegrounded\\.baseline\\.json$', '<rootDir>/\\.timegrounded/report\\.html$'],
    })
  })

  test("keeps the user's reporters, plugins and patterns, never adds itself twice, and follows custom paths and the key", () => {
    const once = withTimegrounded(
      {
        reporters: ['summary', ['jest-junit', { outputDirectory: 'out' }]],
        watchPlugins: ['jest-watch-typeahead/filename'],
        watchPathIgnorePatterns: ['/tmp/'],
      },
      { outputDir: 'reports/tg', baseline: '/abs/base.json', html: false, recordKey: 'r' },
    )
    const twice = withTimegrounded(once, { outputDir: 'reports/tg', baseline: '/abs/base.json', html: false, recordKey: 'r' })
    expect(twice).toEqual(once)
    expect(once.reporters).toEqual([
      'summary',
      ['jest-junit', { outputDirectory: 'out' }],
      ['timegrounded/jest/reporter', { outputDir: 'reports/tg', baseline: '/abs/base.json', html: false }],
    ])
    expect(once.watchPlugins).toEqual(['jest-watch-typeahead/filename', ['timegrounded/jest/watch-plugin', { key: 'r' }]])
    expect(once.watchPathIgnorePatterns).toEqual(['/tmp/', '<rootDir>/reports/tg/', '/abs/base\\.json$'])
  })

  test('refuses a misspelt metric, a bad number or a reserved key as the config loads, naming the option', () => {
    expect(() => withTimegrounded({}, { thresholds: { staleValueLeakgeRate: { max: 0.05 } } } as never)).toThrow(ReporterOptionError)
    expect(() => withTimegrounded({}, { thresholds: { staleValueLeakgeRate: { max: 0.05 } } } as never)).toThrow(/staleValueLeakageRate/)
    expect(() => withTimegrounded({}, { resamples: -3 })).toThrow(/resamples/)
    expect(() => withTimegrounded({}, { recordKey: 'u' })).toThrow('`recordKey` must be one character other than u (Jest keeps u), got "u"')
  })

  test('the CommonJS build a jest.config.js requires does the same', () => {
    const built = require('../../dist/jest/config.cjs') as { withTimegrounded: typeof withTimegrounded }
    expect(built.withTimegrounded({}, {})).toEqual(withTimegrounded({}, {}))
    expect(() => built.withTimegrounded({}, { outputdir: 'x' } as never)).toThrow(/outputDir/)
  })
})
