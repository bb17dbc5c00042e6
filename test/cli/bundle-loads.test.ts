/**
 * What a command loads is most of its peak memory (docs/performance.md): zod,
 * bundled apart as dist/cli/bundles/zod.cjs, adds some 8 MiB on Node 24 when it
 * loads, so a command that checks nothing with it must not load it. A `run`
 * of a built-in store and a `score` check nothing with zod (the bundled
 * dataset's pinned bytes skip the schema; prediction rows are checked by hand);
 * `validate` checks every row with the schema, and shows that the probe sees
 * zod when it loads. An import added on the way to a command's code (as the
 * run's model-call counts once did, through suite/records.ts) fails here.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const PROBE = fileURLToPath(new URL('./fixtures/loaded-modules.cjs', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tg-bundle-loads-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The CLI's bundles that `timegrounded ARGS` loaded, by file name, once it exited 0. */
function bundlesLoaded(args: string[]): string[] {
  const result = spawnSync(process.execPath, ['--require', PROBE, CLI, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } })
  expect(result.status, result.stderr).toBe(0)
  const line = result.stderr.split('\n').find((each) => each.startsWith('loaded-modules '))
  expect(line, result.stderr).toBeDefined()
  const files = JSON.parse((line as string).slice('loaded-modules '.length)) as string[]
  return files.filter((file) => file.includes(join('dist', 'cli', 'bundles'))).map((file) => basename(file))
}

describe('what a command loads', () => {
  test('`run` of a built-in store loads its own bundle and not zod', () => {
    const out = join(work, 'run')
    expect(bundlesLoaded(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out])).toEqual(['run.cjs'])
  })

  test('`score` of a predictions file loads its own bundle and not zod', () => {
    const out = join(work, 'scored-run')
    expect(bundlesLoaded(['run', '--split', 'smoke', '--adapter', 'builtin:hybrid', '--no-html', '--output', out])).toEqual(['run.cjs'])
    expect(bundlesLoaded(['score', join(out, 'predictions.jsonl'), '--output', join(work, 'scored')])).toEqual(['score.cjs'])
  })

  test('`validate`, which checks every row with the schema, loads zod: the probe sees it', () => {
    expect(bundlesLoaded(['validate', '--split', 'smoke'])).toEqual(['validate.cjs', 'zod.cjs'])
  })
})
