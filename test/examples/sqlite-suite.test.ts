/**
 * The SQLite example's own suite (examples/sqlite-bitemporal/test, with its
 * vitest.config.ts) run by the real Vitest CLI in a subprocess, exactly as a
 * user runs it: every probe passes and the plugin's gate holds. The same
 * config on the naive store must fail, or the gate would prove nothing.
 */
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { loadSplit } from '../../src/tivarq/dataset.js'
import { assertBuilt, REPO, runVitest, scratchDir } from '../vitest/run-vitest.js'

const EXAMPLE = join(REPO, 'examples/sqlite-bitemporal')
let scratch: string

beforeAll(() => {
  assertBuilt()
  scratch = scratchDir('examples-suite')
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The split the example's suite file asks for, read from the file itself. */
function exampleSplit(): 'smoke' | 'dev' | 'test' {
  const source = readFileSync(join(EXAMPLE, 'test/memory.timegrounded.test.ts'), 'utf8')
  const split = /split: '(smoke|dev|test)'/.exec(source)?.[1]
  if (split === undefined) throw new Error('examples/sqlite-bitemporal/test/memory.timegrounded.test.ts names no split')
  return split as 'smoke' | 'dev' | 'test'
}

test('the sqlite-bitemporal suite passes every probe under real Vitest and the gate holds', async () => {
  const { probes } = await loadSplit(undefined, exampleSplit())
  // Exactly the README's command, from the repository root.
  const result = await runVitest(['run', '--root', 'examples/sqlite-bitemporal'], { cwd: REPO, timeoutMs: 120_000 })
  expect(result.output).toMatch(new RegExp(`Tests\\s+${probes.length} passed \\(${probes.length}\\)`))
  expect(result.output).toMatch(/Transition success\s+1\.0 \(\d+\)/)
  expect(result.output).toMatch(/Stale-value leakage\s+0\.0 \(\d+\)/)
  expect(result.output).toContain('gate passed')
  expect(result.code).toBe(0)
})

test('the same suite and config on the naive store fails the run, naming the metrics', async () => {
  copyFileSync(join(EXAMPLE, 'vitest.config.ts'), join(scratch, 'vitest.config.ts'))
  const naiveStore = join(REPO, 'examples/naive-store/src/store.ts')
  writeFileSync(
    join(scratch, 'naive.timegrounded.test.ts'),
    readFileSync(join(EXAMPLE, 'test/memory.timegrounded.test.ts'), 'utf8')
      .replace("import { createStore } from '../src/store.js'", `import { createNaiveStore as createStore } from ${JSON.stringify(naiveStore)}`)
      .replace("name: 'sqlite-bitemporal'", "name: 'naive'"),
  )
  const result = await runVitest(['run'], { cwd: scratch, timeoutMs: 120_000 })
  expect(result.output).toMatch(/Tests\s+\d+ failed/)
  expect(result.output).toMatch(/gate violation: .*transitionSuccessRate is/)
  expect(result.output).toMatch(/gate violation: .*staleValueLeakageRate is/)
  expect(result.code).toBe(1)
})
