import { defineConfig } from 'vitest/config'

// Under CI the run also writes a JSON summary, from which `.ci/run` prints a plain
// "N passed, N failed" closing line that any CI log reader understands.
const ci = process.env.CI === 'true'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ci ? ['default', 'json'] : ['default'],
    outputFile: ci ? { json: 'tmp/vitest-results.json' } : undefined,
  },
})
