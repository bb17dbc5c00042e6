/** DeferredRows: rows handled after the turn that handed them over, in order, and never lost (flush, the process's exit). */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { DeferredRows } from '../../src/harness/deferred-rows.js'

const BUILT = fileURLToPath(new URL('../../dist/harness/deferred-rows.js', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tg-deferred-rows-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

test('rows wait for the end of the turn (the promise chain that writes the next request included), then are handled in order', async () => {
  const handled: number[] = []
  const rows = new DeferredRows<number>((row) => handled.push(row))
  rows.push(1)
  rows.push(2)
  // The runner's next request goes out in promise callbacks of this same turn: none of the rows is handled before it.
  await Promise.resolve()
  await Promise.resolve()
  rows.push(3)
  expect(handled).toEqual([])
  await new Promise((resolve) => setImmediate(resolve))
  expect(handled).toEqual([1, 2, 3])
  rows.close()
})

test('flush() handles what is queued at once, and nothing twice; rows queued while one is handled follow it', async () => {
  const handled: string[] = []
  const rows: DeferredRows<string> = new DeferredRows<string>((row) => {
    handled.push(row)
    if (row === 'b') rows.push('b2')
  })
  rows.push('a')
  rows.push('b')
  rows.push('c')
  rows.flush()
  expect(handled).toEqual(['a', 'b', 'c', 'b2'])
  await new Promise((resolve) => setImmediate(resolve))
  expect(handled).toEqual(['a', 'b', 'c', 'b2'])
  rows.close()
})

test('a process that crashes before the end of the turn still handles the rows it was given (the built module, in a real process)', () => {
  const file = join(work, 'rows.txt')
  const script = [
    "import { appendFileSync } from 'node:fs'",
    `import { DeferredRows } from ${JSON.stringify(BUILT)}`,
    `const rows = new DeferredRows((row) => appendFileSync(${JSON.stringify(file)}, row + '\\n'))`,
    "rows.push('first')",
    "rows.push('second')",
    "process.nextTick(() => { throw new Error('deliberate crash') })",
  ].join('\n')
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  expect(result.stderr).toContain('deliberate crash')
  expect(result.status).toBe(1)
  expect(readFileSync(file, 'utf8')).toBe('first\nsecond\n')
})
