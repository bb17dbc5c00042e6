/**
 * The compatibility tier's runner and example cells (scripts/compat*.js), on what can be checked without
 * installing Node binaries or runners (`npm run test:compat` itself runs the cells, in .ci/run): the
 * refusals name what was wrong and what to give, and every bug an example cell puts into a store still
 * applies to that example's source, or the cell would fail for the wrong reason.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const REPO = fileURLToPath(new URL('../..', import.meta.url))

function node(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const ran = spawnSync(process.execPath, args, { cwd: REPO, encoding: 'utf8', timeout: 60_000 })
  return { code: ran.status, stdout: ran.stdout, stderr: ran.stderr }
}

test('--only that matches no cell is refused with the cells there are, of the tier and of --examples', () => {
  const tier = node(['scripts/compat.js', '--only', 'no such cell'])
  expect(tier.code).toBe(2)
  expect(tier.stderr).toContain("compat: --only no such cell: no cell's name contains it; the cells: vitest 4.1.12 · node 20,")
  for (const cell of ['vitest 5.1.2 · node 22', 'jest 29.7.0 · node 26', 'jest 30.5.2 · node 20', 'cli · node 26', 'unit tier · node 24'])
    expect(tier.stderr).toContain(cell)
  // Vitest 5 needs Node 22.12 or later: on Node 20 its one cell checks the refusal, and no other runs it there.
  expect(tier.stderr).toContain('vitest 5.1.2 · node 20, refused,')
  expect(tier.stderr.match(/vitest 5\.1\.2 · node 20/g)).toHaveLength(1)
  expect(tier.stderr).not.toContain('examples/')

  const examples = node(['scripts/compat.js', '--examples', '--only', 'no such cell'])
  expect(examples.code).toBe(2)
  for (const name of ['in-memory', 'sqlite-bitemporal', 'mcp-memory', 'langgraph-store', 'llm-memory', 'jest-memory'])
    expect(examples.stderr).toContain(`examples/${name} · node 24`)
})

test('--jobs must be a whole number of one or more', () => {
  const ran = node(['scripts/compat.js', '--jobs', '0'])
  expect(ran.code).toBe(2)
  expect(ran.stderr).toContain('compat: --jobs 0: give a whole number of cells to run at once, 1 or more')
})

test('an example cell without its arguments prints one FAIL line with its usage', () => {
  const ran = node(['scripts/compat-example-cell.js', '--example', 'no-such-example'])
  expect(ran.code).toBe(2)
  expect(ran.stdout).toBe(
    'FAIL arguments: usage: --example in-memory|sqlite-bitemporal|mcp-memory|langgraph-store|llm-memory|jest-memory --tarball T --work DIR [--addon better_sqlite3.node] [--vitest V]\n',
  )
})

test("every bug an example cell puts into a store is found, once, in that example's file", () => {
  const listed = node([
    '--input-type=module',
    '-e',
    "import { EXAMPLES } from './scripts/compat-example-cell.js'; console.log(JSON.stringify(Object.entries(EXAMPLES).map(([name, { bug }]) => ({ name, ...bug }))))",
  ])
  expect(listed.code, listed.stderr).toBe(0)
  const bugs = JSON.parse(listed.stdout) as { name: string; file: string; from: string; to: string }[]
  expect(bugs.map(({ name }) => name)).toEqual(['in-memory', 'sqlite-bitemporal', 'mcp-memory', 'langgraph-store', 'llm-memory', 'jest-memory'])
  for (const { name, file, from, to } of bugs) {
    const source = readFileSync(join(REPO, 'examples', name, file), 'utf8')
    expect(source.split(from).length - 1, `examples/${name}/${file} should contain ${from} once`).toBe(1)
    expect(to).not.toBe(from)
  }
})

test("a clean cell's stderr is alarming on Node's warnings and an error, never on our counts of errors", () => {
  const stderr = [
    'timegrounded [tivarq] 60 of 60 probes ran: 60 passed, 0 failed, 0 known failures, 0 unsupported (passed as tests), 0 errors; report in /w/report.json',
    '60 probes: 60 answered, 0 unsupported, 0 errors; complete',
    'run: 6/60 probes (10%), 1 error',
    '(node:4242) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.',
    '(node:4242) ExperimentalWarning: CommonJS module /w/a.js is loading ES Module /w/b.mjs using require().',
    'Error: Cannot find module timegrounded/vitest',
    'timegrounded: 2 errors recorded, and the store threw an error',
  ].join('\n')
  const listed = node([
    '--input-type=module',
    '-e',
    `import { alarmingLines } from './test/compat/cell-kit.mjs'; console.log(JSON.stringify(alarmingLines(${JSON.stringify(stderr)})))`,
  ])
  expect(listed.code, listed.stderr).toBe(0)
  expect(JSON.parse(listed.stdout)).toEqual(stderr.split('\n').slice(3))
})
