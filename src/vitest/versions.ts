/**
 * The Vitest versions `timegrounded/vitest` runs on, and what differs between
 * them. Imported first by the entry point, so an unsupported Vitest is refused
 * in one line before anything imports `vitest` (Vitest 3 throws "failed to
 * access its internal state" when a config imports it, which says nothing of
 * versions).
 *
 * Vitest 4.1 and 5 differ in three ways that touch this plugin; each is met by
 * an API both majors share, so no code sniffs a version at run time:
 * - Vitest 5.0 removed `test.sequential`, `describe.sequential` and the
 *   `sequential` option, in favour of `concurrent: false`. The probes of an
 *   episode (suite.ts) and the time-grounded questions (time-grounded.ts) pass
 *   `concurrent: false`, which Vitest 4.1 reads the same way: in order inside
 *   a `describe.concurrent` episode, whatever `sequence.concurrent` says.
 * - Vitest 5.0 no longer publishes `@vitest/runner`. context.ts types the
 *   records through the `TaskMeta` that `vitest` itself exports on both.
 * - Vitest 5 needs Node ^22.12, ^24 or >=26, and does not check it: on Node
 *   20 it runs the tests, then its own printer fails on `Map.groupBy`. So
 *   `nodeByMajor` below refuses that pair at the config's import, in one line.
 * The reporter's hooks and the node API it reads (`onInit`, `onWatcherRerun`,
 * `onTestRunStart`, `onTestModuleCollected`, `onTestModuleEnd`,
 * `onTestRunEnd`, `configureVitest`, `project.provide`, `state.getTestModules`,
 * `state.catchError`, `snapshot.options.updateSnapshot`,
 * `config.shard`/`mergeReports`/`watch`, blob reports, `TestModule.meta()`)
 * are the same on both; test/compat/vitest-cell.mjs runs them on each.
 */
import { checkRunnerVersion, type SupportedRunner } from '../suite/runner-version.js'

/** package.json's peer range for `vitest`, in the words users read. */
export const SUPPORTED_VITEST: SupportedRunner = {
  name: 'Vitest',
  packageName: 'vitest',
  range: { words: '^4.1.12 || ^5', lowest: [4, 1, 12], belowMajor: 6 },
  install: 'vitest@5',
  nodeByMajor: {
    5: {
      words: '^22.12.0 || ^24.0.0 || >=26.0.0',
      ranges: [
        { words: '^22.12.0', lowest: [22, 12, 0], belowMajor: 23 },
        { words: '^24.0.0', lowest: [24, 0, 0], belowMajor: 25 },
        { words: '>=26.0.0', lowest: [26, 0, 0] },
      ],
      otherwise: 'install Vitest 4, which runs on Node 20: `npm i -D vitest@4`',
    },
  },
}

checkRunnerVersion(SUPPORTED_VITEST, import.meta.url)
