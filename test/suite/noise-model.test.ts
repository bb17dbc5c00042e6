/**
 * The noise-aware gate through the real model path: `model:managed` stores
 * (the model answers each question from the turns so far) over HTTP against
 * the scripted chat server on 127.0.0.1, whose model is correct but wrong on a
 * seeded 10% of its replies and samples afresh on every sending (as a model
 * at a temperature above 0). The dev split (48 episodes), 3 repetitions for
 * the baseline and 3 for the run, each on fresh stores through the real pool
 * and runner: the repetitions differ, the exact rule fails the unchanged
 * store, the noise-aware rule passes it, and says so.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { modelAdapter } from '../../src/adapters/models/index.js'
import { openPool } from '../../src/harness/pool.js'
import { runSplit } from '../../src/harness/runner.js'
import { baselineEntry, baselineSample, parseBaseline, repeatsEntry, type SuiteIdentity, withSuites } from '../../src/suite/baseline.js'
import { evaluateGate } from '../../src/suite/gate.js'
import { describeRule } from '../../src/suite/gate-lines.js'
import { sampleOf } from '../../src/suite/noise.js'
import { type LoadedSplit, loadSplit } from '../../src/tivarq/dataset.js'
import { QUALITY_METRICS } from '../../src/tivarq/metrics.js'
import { countRepetitions, identicalAnswers, isFlaky, pooledMetrics, probeRepetitions } from '../../src/tivarq/repeats.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { type ChatServer, startChatServer } from '../support/chat-server.js'
import { tivarqModel } from '../support/tivarq-model.js'
import { VITEST_COMMANDS } from '../../src/vitest/commands.js'

let server: ChatServer
let split: LoadedSplit
beforeAll(async () => {
  split = await loadSplit(undefined, 'dev')
  server = await startChatServer(tivarqModel(split.episodes, { kind: 'noisy', seed: 3, wrongShare: 0.1, sampling: true }))
})
afterAll(() => server.close())

/** `repeats` repetitions of the dev split, each episode on a fresh model:managed store. */
async function repeatedRun(repeats: number): Promise<PredictionRow[][]> {
  const pool = await openPool(modelAdapter('managed', { baseUrl: server.baseUrl, model: 'scripted', env: {} }), { track: 'conversation' })
  const repetitions: PredictionRow[][] = []
  for (let repetition = 0; repetition < repeats; repetition++) {
    repetitions.push(await runSplit({ episodes: split.episodes, probes: split.probes, pool, options: { track: 'conversation', repetition } }))
  }
  await pool.close()
  return repetitions
}

function measured(repetitions: PredictionRow[][]) {
  const counted = countRepetitions(repetitions)
  const identical = identicalAnswers(repetitions)
  return { counted, identical, scored: pooledMetrics(counted), sample: sampleOf(counted, QUALITY_METRICS, identical) }
}

test('a correct but noisy model: the exact rule fails the unchanged store, the noise-aware rule passes it', async () => {
  const identity: SuiteIdentity = { name: 'tivarq', datasetHash: 'sha256:dev', data: 'TIVARQ v1', split: 'dev', track: 'conversation', families: null }
  const before = await repeatedRun(3)
  expect(before.flat().every((row) => row.status === 'answered')).toBe(true)
  const recorded = measured(before)
  expect(recorded.identical).toBe(false)
  expect(probeRepetitions(before).filter(isFlaky).length).toBeGreaterThan(0)
  // The baseline as -u writes it, through the file format and back.
  const entry = baselineEntry(identity, {}, {}, recorded.scored, repeatsEntry(recorded.counted, recorded.identical, probeRepetitions(before)))
  const file = parseBaseline(JSON.stringify(withSuites(null, 'test', { tivarq: entry })), 'timegrounded.baseline.json', VITEST_COMMANDS)
  const baseline = file.suites.tivarq!
  expect(baseline.repeats?.repetitions).toBe(3)

  const run = measured(await repeatedRun(3))
  const exact = evaluateGate({ suite: 'tivarq', current: run.scored, baseline })
  expect(exact.violations.length).toBeGreaterThan(0)
  const noiseAware = evaluateGate({
    suite: 'tivarq',
    current: run.scored,
    baseline,
    repetitions: { run: run.sample, baseline: baselineSample(baseline), seed: 20261001, resamples: 1000 },
  })
  expect(noiseAware.rule).toMatchObject({ kind: 'noise-aware', runRepetitions: 3, baselineRepetitions: 3 })
  expect(describeRule(noiseAware.rule!)).toContain('one-sided 99% for the run')
  expect(noiseAware.violations).toEqual([])
}, 120_000)
