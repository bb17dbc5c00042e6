import { configDefaults, defineConfig } from 'vitest/config'

// Under CI the run also writes a JSON summary, from which `.ci/run` prints a plain
// "N passed, N failed" closing line that any CI log reader understands.
const ci = process.env.CI === 'true'

/**
 * The e2e tier: every file that needs the build (dist/), the packed tarball, a
 * fixture project installed from it, real Vitest or Jest on a fixture project,
 * the built CLI as a subprocess, or Chromium. Everything else is the unit tier,
 * which runs from the sources alone (`npm run test:unit`); test/tiers.test.ts
 * checks that no unit file reaches for what only the e2e tier sets up.
 */
export const E2E_FILES = [
  'test/vitest/**/*.test.ts',
  'test/jest/{cjs,config,esm,interrupt,jest29,properties,reference,watch}.test.ts',
  'test/examples/{demo,jest-memory,langgraph-store,llm-memory,mcp-memory,sqlite-suite}.test.ts',
  'test/cli/**/*.test.ts',
  'test/report/{compare-html-browser,html-browser,html-package,html-render,html-runs,escape}.test.ts',
  'test/chat/secrets.test.ts',
  'test/harness/{doctored-predictions,interrupt,pooled-stores}.test.ts',
  'test/tivarq/dataset-folder.test.ts',
  // Each runs the built kernel in a process of its own with WebAssembly off (--jitless, --no-expose-wasm).
  'test/stats/{random,ratio-interval}.test.ts',
  'test/scripts/**/*.test.ts',
  'test/docs/**/*.test.ts',
  'test/adapters/{serve,process-children,process-children-shells}.test.ts',
  'test/{api,package,readme}.test.ts',
]

export default defineConfig({
  test: {
    // Fixture projects hold test files for the runners they are run with (the Jest ones, for Jest), not for this Vitest.
    exclude: [...configDefaults.exclude, 'test/fixtures/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Vitest's default on 2 cores is one file at a time (cores - 1); the e2e files spend much of their time
    // waiting on npm installs and subprocesses, so two at once keep both cores busy. More would make the inner
    // Vitest and Jest runs, which are CPU-bound, compete past their 60 s limits.
    maxWorkers: 2,
    reporters: ci ? ['default', 'json'] : ['default'],
    outputFile: ci ? { json: 'tmp/vitest-results.json' } : undefined,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, 'test/fixtures/**', ...E2E_FILES] },
      },
      {
        extends: true,
        test: { name: 'e2e', include: E2E_FILES, globalSetup: ['test/support/e2e-setup.ts'] },
      },
    ],
  },
})
