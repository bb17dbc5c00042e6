/**
 * `timegrounded validate`, run as a real subprocess of the built CLI
 * (dist/cli/main.js; `npm test` builds first) on the fixtures and on corrupted copies.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { cleanupCopies, copyFixtures, editRow, FIXTURES_DIR, rehash } from '../tivarq/fixture-copy.js'

afterAll(cleanupCopies)

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))

function timegrounded(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** A copy with a wrong gold answer on line 7 of probes_dev.jsonl and an unknown op on line 3 of episodes_dev.jsonl. */
function corruptedCopy(): string {
  const dir = copyFixtures()
  editRow(dir, 'probes_dev.jsonl', 7, (row) => (row.expected.value = 'evening'))
  editRow(dir, 'episodes_dev.jsonl', 3, (row) => (row.events[2].assertion.op = 'delete'))
  rehash(dir)
  return dir
}

describe('timegrounded validate', () => {
  test('the bundled fixtures: a summary and exit 0', () => {
    const run = timegrounded('validate')
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toBe(
      [
        `TIVARQ dataset at ${FIXTURES_DIR}: valid`,
        '  smoke    12 episodes     60 probes',
        '  dev      48 episodes    240 probes',
        '  test    180 episodes    900 probes',
        '  total  240 episodes, 1200 probes, 12 families, seed 20261001',
        '  6 files match the SHA-256 hashes in manifest.json',
        '  canonical TIVARQ v1 set (TIVARQ dataset, CC BY 4.0): every gold answer, id and per-family count checked',
        '',
      ].join('\n'),
    )
  })

  test('--dataset on a valid copy, with --json', () => {
    const dir = copyFixtures()
    const run = timegrounded('validate', '--dataset', dir, '--json')
    expect(run.status).toBe(0)
    const result = JSON.parse(run.stdout)
    // Upstream's `tivarq validate` keys come first, with its figures.
    expect(Object.keys(result).slice(0, 4)).toEqual(['episodes', 'probes', 'families', 'split_counts'])
    expect(result).toMatchObject({ episodes: 240, probes: 1200, families: 12, split_counts: { smoke: 12, dev: 48, test: 180 } })
    expect(result).toMatchObject({ status: 'valid', dir, canonicalSet: true, splits: ['smoke', 'dev', 'test'] })
    expect(result.fileHashes['probes_dev.jsonl']).toBe('acd5ce41d6f6859c4f352777e3c29196ff9ed2222e4073ac546b2212173de0c8')
  })

  test('a corrupted copy: every issue on its own line and exit 1', () => {
    const dir = corruptedCopy()
    const run = timegrounded('validate', '--dataset', dir)
    expect(run.status).toBe(1)
    expect(run.stdout).toBe(
      [
        `TIVARQ dataset at ${dir}: INVALID, 2 issues`,
        'episodes_dev.jsonl:3: events[2].assertion.op: unknown op "delete"; expected one of set, add, withdraw, uncertain, noop',
        'probes_dev.jsonl:7: expected: gold resolver says {"state":"known","value":"morning"} but the row says {"state":"known","value":"evening"}',
        '',
      ].join('\n'),
    )
  })

  test('a corrupted copy with --json: the issues as data', () => {
    const dir = corruptedCopy()
    const run = timegrounded('validate', '--dataset', dir, '--json')
    expect(run.status).toBe(1)
    const result = JSON.parse(run.stdout)
    expect(result.status).toBe('invalid')
    expect(result.omittedIssues).toBe(0)
    expect(result.canonicalSet).toBe(true)
    expect(result.issues[1]).toEqual({
      code: 'gold_mismatch',
      file: 'probes_dev.jsonl',
      line: 7,
      path: 'expected',
      value: { state: 'known', value: 'evening' },
      message: 'gold resolver says {"state":"known","value":"morning"} but the row says {"state":"known","value":"evening"}',
    })
  })

  test('--max-issues bounds the listing; --split checks one split', () => {
    const dir = corruptedCopy()
    const bounded = timegrounded('validate', '--dataset', dir, '--max-issues', '1')
    expect(bounded.status).toBe(1)
    expect(bounded.stdout.trimEnd().split('\n').slice(1)).toEqual([
      'episodes_dev.jsonl:3: events[2].assertion.op: unknown op "delete"; expected one of set, add, withdraw, uncertain, noop',
      '… and 1 more issue not shown (raise `maxIssues` or `--max-issues` to list them)',
    ])
    expect(timegrounded('validate', '--dataset', dir, '--split', 'smoke', 'test').status).toBe(0)
  })

  test('usage errors exit 2', () => {
    const missing = join(copyFixtures(), 'nowhere')
    const notADirectory = timegrounded('validate', '--dataset', missing)
    expect(notADirectory.status).toBe(2)
    expect(notADirectory.stdout).toBe('')
    expect(notADirectory.stderr).toBe(
      `timegrounded validate: \`--dataset ${missing}\` is not a directory; pass the folder that holds manifest.json and the episodes_*/probes_* files.\n`,
    )
    const unknownOption = timegrounded('validate', '--strict')
    expect(unknownOption.status).toBe(2)
    expect(unknownOption.stderr).toContain("error: unknown option '--strict'")
    const badBound = timegrounded('validate', '--max-issues', 'lots')
    expect(badBound.status).toBe(2)
    expect(badBound.stderr).toContain(
      "error: option '--max-issues <n>' argument 'lots' is invalid. expected a whole number from 1 to 100000 (OPTION_RANGES.maxIssues).",
    )
    const badSplit = timegrounded('validate', '--split', 'train')
    expect(badSplit.status).toBe(2)
    expect(badSplit.stderr).toContain('Allowed choices are smoke, dev, test.')
  })
})
