/**
 * Issue 35 point 4, through an adapter process: `timegrounded fuzz --json -- node catalogue-adapter.mjs
 * BUG` (the built CLI, a bug mode of bench/fixtures/buggy-stores.js served as a tivarq.adapter.v1
 * process) reports a 1-minimal counterexample: take away any one event or query and it passes, run on
 * a fresh process of the same adapter. The in-process side is test/properties/one-minimal.test.ts.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
// @ts-expect-error: a plain JavaScript fixture, shared with the bench script
import { BUG_MODES } from '../../bench/fixtures/buggy-stores.js'
import { commandAdapter } from '../../src/adapters/command.js'
import type { RegressionEpisode } from '../../src/tivarq/regression.js'
import { stillFailingWithout } from '../support/one-minimal.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const BUGS = (BUG_MODES as [string, string][]).map(([bug]) => bug)
const ADAPTER = fileURLToPath(new URL('../fixtures/adapters/catalogue-adapter.mjs', import.meta.url))

describe('every counterexample fuzz reports through an adapter process is 1-minimal', () => {
  // Every bug mode with the default options, and the case the issue found (5 events where 2 suffice).
  test.each<[string, string[]]>([['arrival-order', ['--runs', '1000', '--seed', '1']], ...BUGS.map((bug): [string, string[]] => [bug, []])])(
    'through an adapter process: %s %j',
    { timeout: 120_000 },
    async (bug, flags) => {
      const run = spawnSync(process.execPath, [CLI, 'fuzz', '--json', ...flags, '--', process.execPath, ADAPTER, bug], { encoding: 'utf8', timeout: 100_000 })
      expect(run.status, run.stderr).toBe(1)
      const [counterexample] = (JSON.parse(run.stdout) as { counterexamples: { episodes: RegressionEpisode[] }[] }).counterexamples
      const adapter = () => commandAdapter([process.execPath, ADAPTER, bug])
      expect(await stillFailingWithout(counterexample!.episodes, adapter)).toEqual([])
    },
  )
})
