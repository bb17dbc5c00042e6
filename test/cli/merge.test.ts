/**
 * `timegrounded merge`, run as a real subprocess of the built CLI on shard
 * files made from real runs of the smoke split (the reference stores, through
 * the suite core's scheduler): a whole set gives the report and baseline an
 * unsharded run gives, a failing gate exits 1, and a set that is not whole,
 * mixed or unreadable exits 2 naming the file or the missing shard.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { referenceStore } from '../../src/adapters/reference/index.js'
import { openPool } from '../../src/harness/pool.js'
import { JEST_COMMANDS } from '../../src/jest/commands.js'
import { VITEST_COMMANDS } from '../../src/vitest/commands.js'
import { finishRun } from '../../src/report/finish-run.js'
import type { GatheredRecord } from '../../src/suite/gather.js'
import { resolveReporterOptions, resolveSuiteOptions, type TimegroundedReporterOptions } from '../../src/suite/options.js'
import { planSuite, settleProbe } from '../../src/suite/probes.js'
import { finishedRecord } from '../../src/suite/records.js'
import { scheduleEpisodes } from '../../src/suite/scheduler.js'
import type { RunIdentity } from '../../src/suite/run-identity.js'
import { shardFilePath, writeShardFile } from '../../src/suite/shards.js'
import { loadSplitSync } from '../../src/tivarq/dataset-sync.js'
import { HARNESS_VERSION } from '../../src/version.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))

function merge(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, 'merge', '--no-color', ...args], { cwd, encoding: 'utf8', timeout: 60_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** The records two partitions of the smoke split leave with `store` (one file per partition, as a user spreads a suite over files). */
async function records(store: 'oracle' | 'latest', update: boolean): Promise<GatheredRecord[]> {
  const gathered: GatheredRecord[] = []
  for (const index of [1, 2]) {
    const settings = resolveSuiteOptions({ split: 'smoke', partition: { index, count: 2 } })
    const plan = planSuite(loadSplitSync(undefined, 'smoke'), settings)
    const pool = await openPool(referenceStore(store), { track: 'structured', concurrency: 4 })
    const scheduled = scheduleEpisodes({ pool, episodes: plan.episodes, selected: () => true, runner: { track: 'structured' }, concurrency: 4, repeats: 1 })
    for (const { episode, probes } of plan.episodes) {
      for (const { probe, record } of probes) {
        const rows = await scheduled.rows(probe.probe_id)
        const settled = settleProbe(rows, episode, probe, { status: 'missing' }, update)
        gathered.push({ file: `/project/test/part-${index}.test.ts`, record: finishedRecord(record, rows, settled), blockErrors: [] })
      }
    }
    await scheduled.done
    await pool.close()
  }
  return gathered
}

const OPTIONS: TimegroundedReporterOptions = { thresholds: { staleValueLeakageRate: { max: 0.05 } }, html: false }
/** The run the shards of these sets belong to, as a CI job records it. */
const RUN: RunIdentity = { package: `timegrounded@${HARNESS_VERSION}`, commit: '0123456789abcdef0123456789abcdef01234567', runId: 'GITHUB_RUN_ID=41' }

let work = ''
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'timegrounded-merge-'))
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A project folder with the shards of a run: records split by file, as Jest shards by test file. */
function shardedProject(name: string, all: GatheredRecord[], update: boolean, options = OPTIONS, run = RUN): { dir: string; files: string[] } {
  const dir = join(work, name)
  const files = [1, 2].map((index) => {
    const path = shardFilePath(join(dir, '.timegrounded'), { index, count: 2 })
    const mine = all.filter((record) => record.file.endsWith(`part-${index}.test.ts`))
    writeShardFile(path, { runner: 'jest', shard: { index, count: 2 }, update, options, run, loadErrors: [], records: mine })
    return path
  })
  return { dir, files }
}

describe('timegrounded merge', () => {
  test('a whole set: the report.json, predictions.jsonl and baseline of one unsharded run, and exit 0', async () => {
    const all = await records('oracle', false)
    const { dir, files } = shardedProject('whole', all, false)
    const merged = merge(dir, ...files)
    expect(merged.stderr).toBe('')
    expect(merged.stdout).toContain('timegrounded [tivarq] 60 of 60 probes ran: 60 passed, 0 failed')
    expect(merged.stdout).toContain('gate passed')
    expect(merged.status).toBe(0)

    const single = join(work, 'single')
    finishRun({
      records: all,
      root: single,
      options: resolveReporterOptions(OPTIONS, 'test'),
      update: { kind: 'update' },
      previous: null,
      shard: null,
      color: false,
      commands: VITEST_COMMANDS,
    })
    for (const file of ['report.json', 'predictions.jsonl']) {
      expect(readFileSync(join(dir, '.timegrounded', file), 'utf8')).toBe(readFileSync(join(single, '.timegrounded', file), 'utf8'))
    }
    const recorded = merge(dir, '-u', ...files)
    expect(recorded.stdout).toContain('baseline written to timegrounded.baseline.json: 60 probes, 0 recorded as known failures')
    expect(recorded.status).toBe(0)
    expect(readFileSync(join(dir, 'timegrounded.baseline.json'), 'utf8')).toBe(readFileSync(join(single, 'timegrounded.baseline.json'), 'utf8'))
  })

  test('a store that leaks stale values fails the merged gate (exit 1) with the lines an unsharded run prints', async () => {
    const { dir, files } = shardedProject('leaky', await records('latest', false), false)
    const merged = merge(dir, ...files)
    expect(merged.stdout).toMatch(/gate violation: staleValueLeakageRate is \d+ of \d+ .*above the threshold \(max 0\.05\)/)
    expect(merged.stdout).toContain(`change the threshold in ${JEST_COMMANDS.config}`)
    expect(merged.status).toBe(1)
  })

  test('shards run with -u: a merge without -u does not let their wrong answers pass; with -u it records them', async () => {
    // No threshold here: `-u` never lifts one, so a leaking store would still fail it.
    const { dir, files } = shardedProject('updated', await records('latest', true), true, { html: false })
    const plain = merge(dir, ...files)
    expect(plain.stdout).toMatch(/probes passed only because their (shard|run) ran with `-u`/)
    expect(plain.status).toBe(1)
    const recorded = merge(dir, '-u', ...files)
    expect(recorded.stdout).toMatch(/baseline written to timegrounded\.baseline\.json: 60 probes, [1-9]\d* recorded as known failures/)
    expect(recorded.status).toBe(0)
  })

  test('--no-color wins over a `color: true` the shards ran with; without it, that option colours the report', async () => {
    const { dir, files } = shardedProject('coloured', await records('oracle', false), false, { ...OPTIONS, color: true })
    const env: Record<string, string | undefined> = { ...process.env }
    for (const key of ['NO_COLOR', 'FORCE_COLOR', 'GITHUB_STEP_SUMMARY']) delete env[key]
    const raw = (...args: string[]) => spawnSync(process.execPath, [CLI, 'merge', ...args], { cwd: dir, encoding: 'utf8', env, timeout: 60_000 })
    const ESC = String.fromCharCode(27)
    const plain = raw('--no-color', ...files)
    expect(plain.status, plain.stderr).toBe(0)
    expect(plain.stdout).toContain('60 of 60 probes ran: 60 passed')
    expect(plain.stdout.includes(ESC)).toBe(false)
    const coloured = raw(...files)
    expect(coloured.status, coloured.stderr).toBe(0)
    expect(coloured.stdout.includes(ESC)).toBe(true)
  })

  test('a set that is not whole, mixes shard counts or options, repeats a shard, or holds a file that is not a shard file: exit 2, naming it', async () => {
    const all = await records('oracle', false)
    const { dir, files } = shardedProject('broken', all, false)
    const one = merge(dir, files[0]!)
    expect(one.stderr).toBe('timegrounded merge: incomplete shard set for --shard=?/2: missing 2 (given 1); merge every shard of the run\n')
    expect(one.status).toBe(2)

    expect(merge(dir, files[0]!, files[0]!).stderr).toContain(`shard 1/2 given twice (${files[0]} and ${files[0]})`)

    const three = shardFilePath(join(dir, 'other'), { index: 3, count: 3 })
    writeShardFile(three, { runner: 'jest', shard: { index: 3, count: 3 }, update: false, options: OPTIONS, run: RUN, loadErrors: [], records: [] })
    const mixed = merge(dir, ...files, three)
    expect(mixed.stderr).toContain('the shard files come from runs with different shard counts')
    expect(mixed.status).toBe(2)

    const { files: otherOptions } = shardedProject('other-options', all, false, { ...OPTIONS, thresholds: {} })
    const differing = merge(dir, files[0]!, otherOptions[1]!)
    expect(differing.stderr).toContain(`the shards ran with different timegrounded options (${otherOptions[1]} differ from ${files[0]})`)
    expect(differing.status).toBe(2)

    const garbage = join(dir, 'garbage.json')
    writeFileSync(garbage, '{"format":"something else"}\n')
    const notShard = merge(dir, files[0]!, garbage)
    expect(notShard.stderr).toContain(`${garbage}: not a timegrounded shard file (format:`)
    expect(notShard.status).toBe(2)
    const torn = join(dir, 'torn.json')
    writeFileSync(torn, '{"format":')
    const tornMerge = merge(dir, torn)
    // Cut off after `{"format":` (10 characters): the text ends in column 11 of line 1.
    expect(tornMerge.stderr).toContain(
      `${torn}:1:11: not JSON (expected a value, found the end of the text); run that shard again to write its file anew (shard runs write them to .timegrounded/shards/)`,
    )
    expect(tornMerge.stderr).not.toMatch(/\n\s+at /)
    expect(tornMerge.status).toBe(2)
  })

  test('a fresh shard of one run beside a stale shard of another is refused (exit 2), naming both files and the differing field', async () => {
    // The earlier run was correct; the fresh one leaks. Their shards must never make one "whole" set.
    const { files: earlier } = shardedProject('earlier', await records('oracle', false), false)
    const { dir, files: fresh } = shardedProject('fresh', await records('latest', false), false, OPTIONS, { ...RUN, runId: 'GITHUB_RUN_ID=42' })
    const mixedRuns = merge(dir, fresh[0]!, earlier[1]!)
    expect(mixedRuns.stderr).toContain(
      `${fresh[0]} (shard 1/2) and ${earlier[1]} (shard 2/2) come from different runs (runId GITHUB_RUN_ID=42 vs GITHUB_RUN_ID=41)`,
    )
    expect(mixedRuns.stdout).not.toContain('gate passed')
    expect(mixedRuns.status).toBe(2)

    const { files: otherCommit } = shardedProject('other-commit', await records('oracle', false), false, OPTIONS, {
      ...RUN,
      commit: 'fedcba9876543210fedcba9876543210fedcba98',
    })
    const mixedCommits = merge(dir, fresh[0]!.replace('fresh', 'earlier'), otherCommit[1]!)
    expect(mixedCommits.stderr).toContain(
      'come from different runs (commit 0123456789abcdef0123456789abcdef01234567 vs fedcba9876543210fedcba9876543210fedcba98)',
    )
    expect(mixedCommits.status).toBe(2)
  })

  test('shard files that record a test file failing to load, or hold no result at all, fail the merge (exit 1) and are never gated', async () => {
    const all = await records('oracle', false)
    const { dir, files } = shardedProject('load-error', all, false)
    const second = JSON.parse(readFileSync(files[1]!, 'utf8'))
    writeFileSync(files[1]!, `${JSON.stringify({ ...second, records: [], loadErrors: ['test/part-2.test.ts: Cannot find module ./store'] })}\n`)
    const failed = merge(dir, ...files)
    expect(failed.stdout).toContain(`timegrounded merge: shard 2/2 (${files[1]}) failed to load: test/part-2.test.ts: Cannot find module ./store`)
    expect(failed.stdout).not.toContain('gate passed')
    expect(failed.status).toBe(1)

    const empty = [1, 2].map((index) => {
      const path = shardFilePath(join(dir, 'empty'), { index, count: 2 })
      writeShardFile(path, { runner: 'jest', shard: { index, count: 2 }, update: false, options: OPTIONS, run: RUN, loadErrors: [], records: [] })
      return path
    })
    const nothing = merge(dir, ...empty)
    expect(nothing.stdout).toContain('no timegrounded results in the 2 shards')
    expect(nothing.status).toBe(1)
  })

  describe('a shard whose records contradict their rows or the gold is refused (exit 2), naming the shard, probe and field', () => {
    /** The first shard file with its first record's first row edited as `edit` says, as a careless user or an attacker would. */
    function doctored(name: string, all: GatheredRecord[], edit: (record: Record<string, any>) => void): { dir: string; files: string[]; probe: string } {
      const { dir, files } = shardedProject(name, all, false)
      const shard = JSON.parse(readFileSync(files[0]!, 'utf8'))
      const record = shard.records.find((each: { record: { kind: string } }) => each.record.kind === 'tivarq-probe')!.record
      edit(record)
      writeFileSync(files[0]!, `${JSON.stringify(shard)}\n`)
      return { dir, files, probe: record.probeId }
    }
    const wrong = (record: Record<string, any>) => {
      record.rows[0].prediction.value = 'WRONG'
    }
    const wrongAndExpected = (record: Record<string, any>) => {
      record.rows[0].prediction = { state: 'known', value: 'WRONG' }
      record.rows[0].expected = { state: 'known', value: 'WRONG' }
    }

    test('a wrong answer kept as "correct": the outcome is blamed, nothing is gated', async () => {
      const { dir, files, probe } = doctored('doctored-outcome', await records('oracle', false), wrong)
      const merged = merge(dir, ...files)
      expect(merged.stderr).toContain(`timegrounded merge: ${files[0]} (shard 1/2) contradicts its own rows or the dataset's gold`)
      expect(merged.stderr).toContain(`suite "tivarq", probe ${probe}: outcome: "correct" in the shard, but its rows make it "wrong"`)
      expect(merged.stdout).not.toContain('gate passed')
      expect(merged.status).toBe(2)
    })

    test('expected and prediction both set to "WRONG": the expected answer is blamed against the gold', async () => {
      const { dir, files, probe } = doctored('doctored-gold', await records('oracle', false), wrongAndExpected)
      const merged = merge(dir, ...files)
      expect(merged.stderr).toMatch(
        new RegExp(`suite "tivarq", probe ${probe}: rows\\[0\\]\\.expected: \\{"state":"known","value":"WRONG"\\} in the shard, .* in the dataset's gold`),
      )
      expect(merged.stdout).not.toContain('gate passed')
      expect(merged.status).toBe(2)
    })

    test('with a baseline present, the edit is blamed on the shard, not on the baseline', async () => {
      const all = await records('oracle', false)
      const { dir, files } = shardedProject('doctored-baseline', all, false)
      expect(merge(dir, '-u', ...files).status).toBe(0)
      for (const [name, edit, field] of [
        ['outcome', wrong, 'outcome'],
        ['gold', wrongAndExpected, 'rows[0].expected'],
      ] as const) {
        const { files: edited, probe } = doctored(`doctored-baseline-${name}`, all, edit)
        expect(readFileSync(join(dir, 'timegrounded.baseline.json'), 'utf8')).toContain(`"${probe}"`)
        const merged = merge(dir, ...edited)
        expect(merged.stderr).toContain(`${edited[0]} (shard 1/2) contradicts its own rows or the dataset's gold`)
        expect(merged.stderr).toContain(`probe ${probe}: ${field}: `)
        expect(merged.stderr + merged.stdout).not.toContain('baseline refused')
        expect(merged.status).toBe(2)
      }
    })

    test('a wrong answer whose outcome is edited too still cannot pass: its decision is blamed', async () => {
      const { dir, files, probe } = doctored('doctored-decision', await records('oracle', false), (record) => {
        wrong(record)
        record.outcome = 'wrong'
      })
      const merged = merge(dir, ...files)
      expect(merged.stderr).toContain(
        `probe ${probe}: decision: "pass" in the shard, but a probe whose rows are wrong can only be "fail" or "known_failure" or "suspect"`,
      )
      expect(merged.status).toBe(2)
    })

    test('a row no predictions file could hold (a negative latency) is refused at its field', async () => {
      const { dir, files, probe } = doctored('doctored-latency', await records('oracle', false), (record) => {
        record.rows[0].latency_ms = -1
      })
      const merged = merge(dir, ...files)
      expect(merged.stderr).toContain(`probe ${probe}: rows[0].latency_ms: `)
      expect(merged.status).toBe(2)
    })
  })

  test('a shard file of the earlier format (no run identity) is refused, naming the fix', () => {
    const dir = join(work, 'old-format')
    const path = join(dir, 'shard-1-of-1.json')
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      path,
      `${JSON.stringify({ format: 'timegrounded-shard/1', runner: 'jest', shard: { index: 1, count: 1 }, update: false, options: {}, records: [] })}\n`,
    )
    const old = merge(dir, path)
    expect(old.stderr).toContain(`${path}: a shard file of format timegrounded-shard/1, written by another timegrounded version`)
    expect(old.stderr).toContain('run every shard again with this version, then merge')
    expect(old.status).toBe(2)
  })
})
