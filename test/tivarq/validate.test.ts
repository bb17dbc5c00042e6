/**
 * The validator against the published fixtures and against copies of them
 * with one planted problem each; every problem is checked by its exact
 * rendered line (and, where it matters, its data fields).
 */
import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { renderIssue, renderIssues, validateDataset, type ValidationResult } from '../../src/tivarq/validate.js'
import { bundledDatasetDir } from '../../src/tivarq/dataset.js'
import { cleanupCopies, copyFixtures, editManifest, editRow, readText, rehash, writeText, FIXTURES_DIR } from './fixture-copy.js'

afterAll(cleanupCopies)

/** The published hashes, as listed in the dataset's README. */
const PUBLISHED_HASHES = {
  'episodes_dev.jsonl': 'd743eda91367d2c2240d34e7f244366d316ecf503696863c9052306acbabce47',
  'episodes_smoke.jsonl': '1904f6db1eaafb34e73568da88cea077696919a395221ecd57e2c07f32149b3c',
  'episodes_test.jsonl': '4e516c4fe66571e8d574452a91827e5c560f4bbca7e8ae73f99c5460cc0316d0',
  'probes_dev.jsonl': 'acd5ce41d6f6859c4f352777e3c29196ff9ed2222e4073ac546b2212173de0c8',
  'probes_smoke.jsonl': '20ea59a82f8fc96fc8da70361c73e3e3dc59c25ce872fed401d18d1d7ca65159',
  'probes_test.jsonl': 'f8f8944a12bbd3e53d4ef11558536f28c09a3621c55741cf98723274edd87055',
}

function lines(result: ValidationResult): string[] {
  return result.status === 'invalid' ? result.issues.map(renderIssue) : []
}

/** Validate a copy after `plant` corrupts it; re-record hashes unless told not to. */
async function validateCorrupted(plant: (dir: string) => void, options: { rehash?: boolean } = {}): Promise<{ dir: string; result: ValidationResult }> {
  const dir = copyFixtures()
  plant(dir)
  if (options.rehash !== false) rehash(dir)
  return { dir, result: await validateDataset(dir) }
}

describe('the published dataset', () => {
  test('the bundled fixtures are valid, canonical, with the published counts and hashes', async () => {
    const result = await validateDataset()
    expect(result.status).toBe('valid')
    if (result.status !== 'valid') return
    expect(result.dir).toBe(bundledDatasetDir())
    expect(result.canonicalSet).toBe(true)
    expect(result.counts).toEqual({ smoke: { episodes: 12, probes: 60 }, dev: { episodes: 48, probes: 240 }, test: { episodes: 180, probes: 900 } })
    expect(result.fileHashes).toEqual(PUBLISHED_HASHES)
    expect(result.manifest.seed).toBe(20261001)
  })

  test('the bundled directory is the fixtures folder of the package', () => {
    expect(bundledDatasetDir()).toBe(FIXTURES_DIR)
  })

  test('validating one split checks only its files', async () => {
    const dir = copyFixtures()
    rmSync(join(dir, 'probes_test.jsonl'))
    const result = await validateDataset(dir, { splits: ['dev'] })
    expect(result.status).toBe('valid')
    if (result.status !== 'valid') return
    expect(Object.keys(result.fileHashes).sort()).toEqual(['episodes_dev.jsonl', 'probes_dev.jsonl'])
    expect(lines(await validateDataset(dir))).toEqual([
      `probes_test.jsonl: file not found in ${dir}; a TIVARQ directory holds episodes_<split>.jsonl and probes_<split>.jsonl for smoke, dev and test`,
    ])
  })
})

describe('problems with files and bytes', () => {
  test('a missing directory', async () => {
    const dir = join(copyFixtures(), 'nowhere')
    const result = await validateDataset(dir)
    expect(lines(result)).toEqual([`${dir}: no such directory; pass the folder that holds manifest.json and the episodes_*/probes_* files`])
  })

  test('a missing file', async () => {
    const { dir, result } = await validateCorrupted((dir) => rmSync(join(dir, 'probes_dev.jsonl')), { rehash: false })
    expect(lines(result)).toEqual([
      `probes_dev.jsonl: file not found in ${dir}; a TIVARQ directory holds episodes_<split>.jsonl and probes_<split>.jsonl for smoke, dev and test`,
    ])
    if (result.status === 'invalid') expect(result.issues[0]).toMatchObject({ code: 'missing_file', file: 'probes_dev.jsonl', line: null, path: null })
  })

  test('a missing manifest.json is reported, and the rows are still checked', async () => {
    const { dir, result } = await validateCorrupted(
      (dir) => {
        rmSync(join(dir, 'manifest.json'))
        editRow(dir, 'probes_smoke.jsonl', 2, (row) => (row.expected.value = 'Klingon'))
      },
      { rehash: false },
    )
    expect(lines(result)).toEqual([
      `manifest.json: not found in ${dir}; without it no file can be checked against its published SHA-256 — download it with the dataset or regenerate the directory with \`timegrounded generate\``,
      'probes_smoke.jsonl:2: expected: gold resolver says {"state":"known","value":"English"} but the row says {"state":"known","value":"Klingon"}',
    ])
  })

  test('a hash mismatch', async () => {
    let actual = ''
    const { result } = await validateCorrupted(
      (dir) => {
        writeText(dir, 'episodes_smoke.jsonl', readText(dir, 'episodes_smoke.jsonl').replace('I prefer email', 'I prefer Email'))
        actual = createHash('sha256')
          .update(readFileSync(join(dir, 'episodes_smoke.jsonl')))
          .digest('hex')
      },
      { rehash: false },
    )
    expect(actual).not.toBe(PUBLISHED_HASHES['episodes_smoke.jsonl'])
    expect(lines(result)).toEqual([
      `episodes_smoke.jsonl: SHA-256 is ${actual} but manifest.json records 1904f6db1eaafb34e73568da88cea077696919a395221ecd57e2c07f32149b3c; the file is not the one the manifest describes — re-download it, or regenerate the directory if you changed it on purpose`,
    ])
    if (result.status === 'invalid') expect(result.issues[0]).toMatchObject({ code: 'hash_mismatch', value: actual })
  })

  test('a manifest without the hash of a file', async () => {
    const { result } = await validateCorrupted((dir) => editManifest(dir, (manifest) => delete manifest.files['probes_test.jsonl']), { rehash: false })
    expect(lines(result)).toEqual([
      'manifest.json: files.probes_test.jsonl: no SHA-256 recorded for probes_test.jsonl; add it (`sha256sum probes_test.jsonl`) or restore manifest.json from the dataset download',
    ])
  })

  test('a byte order mark', async () => {
    const { result } = await validateCorrupted((dir) => writeText(dir, 'episodes_dev.jsonl', `\ufeff${readText(dir, 'episodes_dev.jsonl')}`))
    expect(lines(result)).toEqual([
      'episodes_dev.jsonl:1: starts with a byte order mark (U+FEFF); TIVARQ files are UTF-8 without BOM — save the file without it',
    ])
  })

  test('CRLF line endings are reported once for the file', async () => {
    const { result } = await validateCorrupted((dir) => writeText(dir, 'probes_smoke.jsonl', readText(dir, 'probes_smoke.jsonl').replace(/\n/g, '\r\n')))
    expect(lines(result)).toEqual([
      'probes_smoke.jsonl:1: CRLF line ending (\\r\\n) here and on 59 more lines; TIVARQ files end lines with \\n only — convert the file (e.g. `dos2unix probes_smoke.jsonl`)',
    ])
  })

  test('a truncated last line', async () => {
    const { result } = await validateCorrupted((dir) => {
      const text = readText(dir, 'probes_dev.jsonl')
      const lastStart = text.lastIndexOf('\n', text.length - 2) + 1
      writeText(dir, 'probes_dev.jsonl', text.slice(0, lastStart + 100))
    })
    expect(lines(result)).toEqual([
      'probes_dev.jsonl:240: line is cut off (the file ends mid-row, without a newline): "{\\"after_event_index\\":5,\\"as_of\\":\\"2032-01-27T00:00:00Z\\",\\"capab…" — the file was truncated; re-download it',
    ])
    if (result.status === 'invalid') expect(result.issues[0]).toMatchObject({ code: 'truncated_line', line: 240 })
  })

  test('a last line without its newline', async () => {
    const { result } = await validateCorrupted((dir) => writeText(dir, 'episodes_smoke.jsonl', readText(dir, 'episodes_smoke.jsonl').trimEnd()))
    expect(lines(result)).toEqual(['episodes_smoke.jsonl:12: the last line does not end with a newline (\\n); every TIVARQ row ends with one — add it'])
  })

  test('a line that is not JSON', async () => {
    const { result } = await validateCorrupted((dir) => {
      const rows = readText(dir, 'probes_dev.jsonl').split('\n')
      rows[11] = '{"probe_id": "dev-oops",'
      writeText(dir, 'probes_dev.jsonl', rows.join('\n'))
    })
    expect(lines(result)).toEqual(['probes_dev.jsonl:12: not valid JSON: "{\\"probe_id\\": \\"dev-oops\\","; each line must be one complete JSON object'])
  })

  test('a blank line', async () => {
    const { result } = await validateCorrupted((dir) => writeText(dir, 'probes_smoke.jsonl', readText(dir, 'probes_smoke.jsonl').replace('\n', '\n\n')))
    expect(lines(result)).toEqual(['probes_smoke.jsonl:2: blank line; TIVARQ files hold exactly one JSON row per line — delete the line'])
  })
})

describe('problems with rows', () => {
  test('an unknown op', async () => {
    const { result } = await validateCorrupted((dir) => editRow(dir, 'episodes_dev.jsonl', 3, (row) => (row.events[2].assertion.op = 'delete')))
    expect(lines(result)).toEqual(['episodes_dev.jsonl:3: events[2].assertion.op: unknown op "delete"; expected one of set, add, withdraw, uncertain, noop'])
    if (result.status === 'invalid') {
      expect(result.issues[0]).toEqual({
        code: 'unknown_value',
        file: 'episodes_dev.jsonl',
        line: 3,
        path: 'events[2].assertion.op',
        value: 'delete',
        message: 'unknown op "delete"; expected one of set, add, withdraw, uncertain, noop',
      })
    }
  })

  test('an unknown state', async () => {
    const { result } = await validateCorrupted((dir) => editRow(dir, 'probes_dev.jsonl', 7, (row) => (row.expected.state = 'maybe')))
    expect(lines(result)).toEqual([
      'probes_dev.jsonl:7: expected.state: unknown state "maybe"; expected one of known, unknown, withdrawn, needs_clarification, expired',
    ])
  })

  test('a known answer without a value, and a withdrawn one with a value', async () => {
    const { result } = await validateCorrupted((dir) => {
      editRow(dir, 'probes_dev.jsonl', 7, (row) => (row.expected.value = null))
      editRow(dir, 'probes_dev.jsonl', 8, (row) => (row.expected = { state: 'withdrawn', value: 'French' }))
    })
    expect(lines(result)).toEqual([
      'probes_dev.jsonl:7: expected.value: a known answer needs a value (a string or a list of strings)',
      'probes_dev.jsonl:8: expected.value: state withdrawn must carry value null, not "French"',
    ])
  })

  test('a missing field, an unknown field, a bad instant and a wrong type', async () => {
    const { result } = await validateCorrupted((dir) =>
      editRow(dir, 'probes_smoke.jsonl', 1, (row) => {
        row.questoin = row.question
        delete row.question
        row.as_of = '2025-01-02'
        row.after_event_index = '3'
      }),
    )
    expect(lines(result)).toEqual([
      'probes_smoke.jsonl:1: after_event_index: expected a number, got "3"',
      'probes_smoke.jsonl:1: as_of: expected an ISO-8601 instant such as 2025-01-01T00:00:00Z (or with a UTC offset, 2025-01-01T05:30:00+05:30), got "2025-01-02"',
      'probes_smoke.jsonl:1: question: missing; a string is required',
      'probes_smoke.jsonl:1: questoin: unknown field; tivarq.v1 rows have no such field (a typo?)',
    ])
  })

  test('a missing enum field (role, op) is reported as missing, with the allowed values', async () => {
    const { result } = await validateCorrupted((dir) => {
      editRow(dir, 'probes_dev.jsonl', 7, (row) => delete row.role)
      editRow(dir, 'episodes_dev.jsonl', 3, (row) => delete row.events[2].assertion.op)
    })
    expect(lines(result)).toEqual([
      'episodes_dev.jsonl:3: events[2].assertion.op: missing; expected one of set, add, withdraw, uncertain, noop',
      'probes_dev.jsonl:7: role: missing; expected one of target, control, scope_control',
    ])
    if (result.status === 'invalid') expect(result.issues.map((issue) => issue.code)).toEqual(['missing_field', 'missing_field'])
  })

  test('a wrong gold answer on line 7 of probes_dev.jsonl', async () => {
    const { result } = await validateCorrupted((dir) => editRow(dir, 'probes_dev.jsonl', 7, (row) => (row.expected.value = 'evening')))
    expect(lines(result)).toEqual([
      'probes_dev.jsonl:7: expected: gold resolver says {"state":"known","value":"morning"} but the row says {"state":"known","value":"evening"}',
    ])
    if (result.status === 'invalid') {
      expect(result.issues[0]).toMatchObject({
        code: 'gold_mismatch',
        file: 'probes_dev.jsonl',
        line: 7,
        path: 'expected',
        value: { state: 'known', value: 'evening' },
      })
    }
  })

  test('a duplicate probe id and a duplicate episode id', async () => {
    const { result } = await validateCorrupted((dir) => {
      editRow(dir, 'probes_dev.jsonl', 8, (row) => (row.probe_id = 'replacement-02-q3'))
      editRow(dir, 'episodes_test.jsonl', 2, (row) => (row.episode_id = 'replacement-00'))
    })
    expect(lines(result)).toEqual([
      'probes_dev.jsonl:8: probe_id: duplicate probe_id "replacement-02-q3"; first seen at probes_dev.jsonl:7',
      'episodes_test.jsonl:2: episode_id: duplicate episode_id "replacement-00"; first seen at episodes_smoke.jsonl:1',
      // The renamed episode's own probes now point nowhere, which is true and said so.
      'probes_test.jsonl:5: episode_id: no episode "replacement-06" in episodes_test.jsonl',
      'probes_test.jsonl:6: episode_id: no episode "replacement-06" in episodes_test.jsonl',
      'probes_test.jsonl:7: episode_id: no episode "replacement-06" in episodes_test.jsonl',
      'probes_test.jsonl:8: episode_id: no episode "replacement-06" in episodes_test.jsonl',
    ])
  })

  test('after_event_index out of bounds', async () => {
    const { result } = await validateCorrupted((dir) => editRow(dir, 'probes_dev.jsonl', 7, (row) => (row.after_event_index = 9)))
    expect(lines(result)).toEqual(['probes_dev.jsonl:7: after_event_index: 9 is past the end of episode "replacement-02", which has 4 events (allowed 0..4)'])
  })

  test('a probe whose episode does not exist', async () => {
    const { result } = await validateCorrupted((dir) => {
      editRow(dir, 'probes_dev.jsonl', 7, (row) => (row.episode_id = 'replacement-99'))
      editRow(dir, 'probes_dev.jsonl', 8, (row) => (row.episode_id = 'replacement-00'))
    })
    expect(lines(result)).toEqual([
      'probes_dev.jsonl:7: episode_id: no episode "replacement-99" in episodes_dev.jsonl',
      'probes_dev.jsonl:8: episode_id: no episode "replacement-00" in episodes_dev.jsonl (it is at episodes_smoke.jsonl:1, another split)',
    ])
  })

  test('an episode filed under the wrong split', async () => {
    const { result } = await validateCorrupted((dir) => editRow(dir, 'episodes_dev.jsonl', 5, (row) => (row.split = 'test')))
    expect(lines(result)).toEqual(['episodes_dev.jsonl:5: split: episode says split "test" but sits in episodes_dev.jsonl; move the row or fix the field'])
  })

  test('an episode whose seed differs from the manifest', async () => {
    const { result } = await validateCorrupted((dir) => editRow(dir, 'episodes_smoke.jsonl', 4, (row) => (row.seed = 7)))
    expect(lines(result)).toEqual(['episodes_smoke.jsonl:4: seed: seed 7 differs from the seed 20261001 in manifest.json'])
  })
})

describe('the canonical set and user-made sets', () => {
  /** Drop the last test episode (ambiguity-19) and its five probes. */
  function dropLastTestEpisode(dir: string): void {
    writeText(dir, 'episodes_test.jsonl', `${readText(dir, 'episodes_test.jsonl').split('\n').slice(0, 179).join('\n')}\n`)
    writeText(dir, 'probes_test.jsonl', `${readText(dir, 'probes_test.jsonl').split('\n').slice(0, 895).join('\n')}\n`)
  }

  test('a set whose manifest is not the canonical one is not held to the canonical counts', async () => {
    const { result } = await validateCorrupted((dir) => {
      dropLastTestEpisode(dir)
      editManifest(dir, (manifest) => (manifest.episode_count = 239))
    })
    expect(result.status).toBe('valid')
    expect(result.canonicalSet).toBe(false)
    expect(result.counts.test).toEqual({ episodes: 179, probes: 895 })
  })

  test('the canonical set must hold 1/4/15 episodes per family and 60/240/900 probes', async () => {
    const { result } = await validateCorrupted((dir) => dropLastTestEpisode(dir))
    expect(lines(result)).toEqual([
      'episodes_test.jsonl: family: family "ambiguity" has 14 episodes; the canonical TIVARQ v1 set has 15 per family in test',
      'probes_test.jsonl: holds 895 probes; the canonical TIVARQ v1 set has 900 in test',
      'manifest.json: episode_count: says 240 episodes but the split files hold 239',
    ])
  })

  test('the canonical set must list the twelve families', async () => {
    const { result } = await validateCorrupted((dir) =>
      editManifest(dir, (manifest) => (manifest.families = manifest.families.filter((family: string) => family !== 'ambiguity'))),
    )
    expect(lines(result).slice(-1)).toEqual([
      'manifest.json: families: the canonical TIVARQ v1 set has exactly the 12 families replacement, reversal, withdrawal, add_vs_replace, scoped_change, future_effective, expiration, retro_correction, delayed_arrival, duplicate_event, third_party_quote, ambiguity; missing: ambiguity',
    ])
    // Every ambiguity episode is also reported as outside the manifest's families (1 + 4 + 15).
    expect(lines(result).filter((line) => line.includes('is not among the families listed in manifest.json'))).toHaveLength(20)
  })
})

describe('bounded reporting', () => {
  test('issues beyond maxIssues are counted, not kept', async () => {
    const dir = copyFixtures()
    writeText(dir, 'probes_test.jsonl', readText(dir, 'probes_test.jsonl').replace(/"after_event_index":\d+/g, '"after_event_index":99'))
    rehash(dir)
    const result = await validateDataset(dir, { maxIssues: 5 })
    expect(result.status).toBe('invalid')
    if (result.status !== 'invalid') return
    expect(result.issues).toHaveLength(5)
    expect(result.omittedIssues).toBe(895)
    expect(result.issues.map((issue) => issue.line)).toEqual([1, 2, 3, 4, 5])
    const rendered = renderIssues(result.issues, result.omittedIssues).split('\n')
    expect(rendered).toHaveLength(6)
    expect(rendered[0]).toBe('probes_test.jsonl:1: after_event_index: 99 is past the end of episode "replacement-05", which has 4 events (allowed 0..4)')
    expect(rendered[5]).toBe('… and 895 more issues not shown (raise `maxIssues` or `--max-issues` to list them)')
  })

  test('the default bound is 100', async () => {
    const dir = copyFixtures()
    writeText(dir, 'probes_test.jsonl', readText(dir, 'probes_test.jsonl').replace(/"after_event_index":\d+/g, '"after_event_index":99'))
    rehash(dir)
    const result = await validateDataset(dir)
    expect(result.status === 'invalid' && [result.issues.length, result.omittedIssues]).toEqual([100, 800])
  })
})
