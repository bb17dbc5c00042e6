/**
 * Issue 35 point 4: every counterexample the property runner reports is 1-minimal — take away any one
 * event or any one query and the case passes. Checked over every bug mode of the catalogue of buggy
 * stores (bench/fixtures/buggy-stores.js), in process (through an adapter process: test/cli/fuzz-one-minimal.test.ts). Each smaller case is run as
 * the pasted regression episodes are run (runSplit on a fresh store of the same bug, expected answers
 * from the gold resolver), not by the runner's own shrinking.
 */
import { describe, expect, test } from 'vitest'
// @ts-expect-error: a plain JavaScript fixture, shared with the bench script
import { BUG_MODES } from '../../bench/fixtures/buggy-stores.js'
import { counterexampleEpisodes } from '../../src/properties/counterexample.js'
import { resolvePropertyOptions } from '../../src/properties/options.js'
import { runProperties } from '../../src/properties/run.js'
import type { RegressionEpisode } from '../../src/tivarq/regression.js'
import { freshSource, stillFailingWithout } from '../support/one-minimal.js'

const BUGS = (BUG_MODES as [string, string][]).map(([bug]) => bug)

describe('every reported counterexample is 1-minimal', () => {
  test.each(BUGS)('in process: %s', async (bug) => {
    const result = await runProperties(freshSource(bug), resolvePropertyOptions({}, 'test'))
    if (result.status !== 'failed') throw new Error(`${bug} was not found`)
    const episodes = JSON.parse(JSON.stringify(counterexampleEpisodes(result.counterexample))) as RegressionEpisode[]
    expect(await stillFailingWithout(episodes, () => freshSource(bug))).toEqual([])
  })
})
