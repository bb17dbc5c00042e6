// `timegrounded merge` on a Vitest project's shard files (no blobs): real Vitest shards on the
// basic fixture, where one shard gets only a plain test file, then the built CLI merges them.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { basicScenarios, REPO, runVitest } from './run-vitest.js'

const CLI = join(REPO, 'dist/cli/main.js')
const PROJECT = join(REPO, 'test/fixtures/vitest-projects/basic')
const { env, run, scratch } = basicScenarios('vitest-merge')

function merge(args: string[]): { code: number | null; output: string } {
  const environment: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
  delete environment.GITHUB_STEP_SUMMARY
  const ran = spawnSync(process.execPath, [CLI, 'merge', '--root', PROJECT, ...args], { cwd: PROJECT, env: environment, encoding: 'utf8' })
  return { code: ran.status, output: ran.stdout + ran.stderr }
}

/** report.json without the fields that measure time. */
function withoutTimings(path: string): string {
  const report = JSON.parse(readFileSync(path, 'utf8'))
  return JSON.stringify(report, (key, value) => (key === 'query_latency_ms' || key === 'update_lag_ms' ? undefined : value))
}

test('every Vitest shard leaves its file, even one with no timegrounded suite, and the merge scores and gates the set as one run', async () => {
  const include = { TG_INCLUDE: 'probes/{whole,plain}.probes.ts', TG_BUG: 'stale', TG_THRESHOLDS: JSON.stringify({ staleValueLeakageRate: { max: 0.05 } }) }
  const violation = 'timegrounded [tivarq] gate violation: staleValueLeakageRate is 8 of 15 (0.533333), above the threshold (max 0.05)'
  const unsharded = env('whole', include)
  const whole = await run([], unsharded)
  expect(whole.output).toContain(violation)
  expect(whole.code).toBe(1)

  const sharded = env('sharded', include)
  const shardDir = join(sharded.TG_OUTPUT!, 'shards')
  for (const shard of ['1/2', '2/2']) {
    const result = await run([`--shard=${shard}`], sharded)
    expect(result.output).not.toContain('gate violation')
  }
  // Vitest gives each file to one shard: one of them ran only the plain test, and still leaves its (empty) file.
  expect(readdirSync(shardDir).sort()).toEqual(['shard-1-of-2.json', 'shard-2-of-2.json'])
  const files = ['shard-1-of-2.json', 'shard-2-of-2.json'].map((name) => join(shardDir, name))
  const counts = files.map((file) => (JSON.parse(readFileSync(file, 'utf8')) as { records: unknown[] }).records.length).sort()
  expect(counts).toEqual([0, 60])

  const missing = merge([files[0]!])
  expect(missing.output).toContain('incomplete shard set for --shard=?/2: missing 2 (given 1)')
  expect(missing.code).toBe(2)

  const merged = merge(files)
  expect(merged.output).toContain('60 of 60 probes ran: 48 passed, 12 failed')
  expect(merged.output).toContain(violation)
  expect(merged.code).toBe(1)
  expect(withoutTimings(join(sharded.TG_OUTPUT!, 'report.json'))).toBe(withoutTimings(join(unsharded.TG_OUTPUT!, 'report.json')))

  // -u records the baseline from all shards; the threshold still fails the merge.
  const recorded = merge(['-u', ...files])
  expect(recorded.output).toContain('baseline written to')
  expect(recorded.output).toContain(violation)
  expect(recorded.code).toBe(1)
  expect(existsSync(sharded.TG_BASELINE!)).toBe(true)
  expect(Object.keys(JSON.parse(readFileSync(sharded.TG_BASELINE!, 'utf8')).suites.tivarq.probes)).toHaveLength(60)
})

/** Run `include` sharded 1/2 and 2/2 with blobs in their own folder; each shard's extra variables from `perShard`. */
async function shardRuns(name: string, include: Record<string, string>, perShard: (index: number) => Record<string, string> = () => ({})) {
  // The commit pinned as a CI job has it (GITHUB_SHA): the shards' identity must not follow edits made while they run.
  const variables = env(name, { GITHUB_SHA: 'c0ffee0000000000000000000000000000000000', ...include })
  const blobs = join(scratch(), `${name}-blobs`)
  for (const index of [1, 2]) {
    const result = await run([`--shard=${index}/2`, '--reporter=blob', `--outputFile=${join(blobs, `blob-${index}.json`)}`], {
      ...variables,
      ...perShard(index),
    })
    expect(result.output).not.toContain('gate passed')
  }
  const files = [1, 2].map((index) => join(variables.TG_OUTPUT!, 'shards', `shard-${index}-of-2.json`))
  return { variables, blobs, files }
}

const mergeReports = (blobs: string, variables: Record<string, string>) =>
  runVitest(['--root', PROJECT, `--merge-reports=${blobs}`], { cwd: PROJECT, env: variables })

test('`vitest --merge-reports` with a blob missing fails naming the missing shard, as `timegrounded merge` does', { timeout: 180_000 }, async () => {
  const { variables, blobs } = await shardRuns('missing-blob', { TG_INCLUDE: 'probes/part*.probes.ts' })
  rmSync(join(blobs, 'blob-2.json'))
  const merged = await mergeReports(blobs, variables)
  expect(merged.output).toContain('timegrounded merge: incomplete shard set for --shard=?/2: missing 2 (given 1); merge every shard of the run')
  expect(merged.output).not.toContain('partial run')
  expect(merged.output).not.toContain('gate passed')
  expect(merged.code).toBe(1)
})

test('shards of two runs (another CI run id) are refused together by `vitest --merge-reports` and by `timegrounded merge`, naming the field', {
  timeout: 180_000,
}, async () => {
  const { variables, blobs, files } = await shardRuns('two-runs', { TG_INCLUDE: 'probes/part*.probes.ts' }, (index) => ({ GITHUB_RUN_ID: `${100 + index}` }))
  const merged = await mergeReports(blobs, variables)
  expect(merged.output).toMatch(/\(shard 1\/2\) and .* \(shard 2\/2\) come from different runs \(runId GITHUB_RUN_ID=101 vs GITHUB_RUN_ID=102\)/)
  expect(merged.output).not.toContain('gate passed')
  expect(merged.code).toBe(1)
  const cli = merge(files)
  expect(cli.output).toContain(`${files[0]} (shard 1/2) and ${files[1]} (shard 2/2) come from different runs (runId GITHUB_RUN_ID=101 vs GITHUB_RUN_ID=102)`)
  expect(cli.code).toBe(2)
})

test('a shard whose test file failed to load carries the failure into both merges, which are never gated', { timeout: 180_000 }, async () => {
  const { variables, blobs, files } = await shardRuns('load-error', { TG_INCLUDE: 'probes/{whole,load-error}.probes.ts' })
  const cli = merge(files)
  expect(cli.output).toMatch(/timegrounded merge: shard [12]\/2 \(.*\) failed to load: probes\/load-error\.probes\.ts: .*missing-store/)
  expect(cli.output).not.toContain('gate passed')
  expect(cli.code).toBe(1)
  const merged = await mergeReports(blobs, variables)
  expect(merged.output).toMatch(/timegrounded merge: shard [12]\/2 \(.*\) failed to load: probes\/load-error\.probes\.ts: .*missing-store/)
  expect(merged.output).not.toContain('gate passed')
  expect(merged.code).toBe(1)
})

test('shard files with no timegrounded result at all (their suite failed to load) fail `timegrounded merge`', { timeout: 180_000 }, async () => {
  const { files } = await shardRuns('no-results', { TG_INCLUDE: 'probes/{plain,load-error}.probes.ts' })
  const nothing = merge(files)
  expect(nothing.output).toContain('failed to load')
  expect(nothing.output).toContain('no timegrounded results in the 2 shards')
  expect(nothing.code).toBe(1)
})
