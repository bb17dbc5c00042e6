// The one merge rule (checkShardSet) on the parts a merged Vitest report makes from its modules' stamps:
// the cases a real blob merge reaches only by hand (two blobs claiming one shard, a blob with no stamp).
import { describe, expect, test } from 'vitest'
import type { RunIdentity } from '../../src/suite/run-identity.js'
import { checkShardSet, type MergedModule, ShardSetError, shardPartsOfModules } from '../../src/suite/shards.js'

const RUN: RunIdentity = { package: 'timegrounded@test', commit: 'abc', runId: 'GITHUB_RUN_ID=1' }

function module(file: string, stamp: unknown): MergedModule {
  return { file, stamp, errors: [], records: [{ file, record: { kind: 'other' }, blockErrors: [] }] }
}

describe('the shards of a merged report', () => {
  test('modules group by their stamp into one part per shard; a whole set of one run passes', () => {
    const parts = shardPartsOfModules([
      module('a.test.ts', { shard: { index: 1, count: 2 }, run: RUN }),
      module('b.test.ts', { shard: { index: 2, count: 2 }, run: RUN }),
      module('c.test.ts', { shard: { index: 1, count: 2 }, run: RUN }),
    ])
    expect(parts.map((part) => [part.source, part.shard.index, part.records.length])).toEqual([
      ['a.test.ts, c.test.ts', 1, 2],
      ['b.test.ts', 2, 1],
    ])
    expect(checkShardSet(parts).failures).toEqual([])
  })

  test('two blobs of different runs claiming one shard are the shard given twice', () => {
    expect(() =>
      shardPartsOfModules([
        module('a.test.ts', { shard: { index: 1, count: 2 }, run: RUN }),
        module('b.test.ts', { shard: { index: 1, count: 2 }, run: { ...RUN, runId: 'GITHUB_RUN_ID=2' } }),
      ]),
    ).toThrow('shard 1/2 given twice, by two runs (a.test.ts and b.test.ts carry different stamps)')
  })

  test('a module without a stamp (a shard run without the reporter) is refused, naming it', () => {
    const parts = shardPartsOfModules([module('a.test.ts', { shard: { index: 1, count: 1 }, run: RUN }), module('old.test.ts', undefined)])
    expect(() => checkShardSet(parts)).toThrow(ShardSetError)
    expect(() => checkShardSet(parts)).toThrow(/^old\.test\.ts recorded no run identity/)
  })

  test('a module that failed to load is a failure of its shard, naming the file', () => {
    const broken: MergedModule = { file: 'x.test.ts', stamp: { shard: { index: 1, count: 1 }, run: RUN }, errors: ['Cannot find module ./store'], records: [] }
    expect(checkShardSet(shardPartsOfModules([broken])).failures).toEqual([
      'shard 1/1 (x.test.ts) failed to load: x.test.ts: Cannot find module ./store',
      'no timegrounded results in the 1 shards (x.test.ts): no suite ran, so nothing was gated; check that the test files load and declare a suite',
    ])
  })
})
