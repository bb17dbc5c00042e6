import { configDefaults, defineConfig } from 'vitest/config'

// Under CI the run also writes a JSON summary, from which `.ci/run` prints a plain
// "N passed, N failed" closing line that any CI log reader understands.
const ci = process.env.CI === 'true'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Fixture projects hold test files for the runners they are run with (the Jest ones, for Jest), not for this Vitest.
    exclude: [...configDefaults.exclude, 'test/fixtures/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ci ? ['default', 'json'] : ['default'],
    outputFile: ci ? { json: 'tmp/vitest-results.json' } : undefined,
  },
})
