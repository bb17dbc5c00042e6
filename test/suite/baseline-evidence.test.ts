/**
 * A baseline is evidence: every figure in it must follow from its recorded
 * answers. Real runs of the smoke split (the reference stores, through the real
 * pool and runner, each probe settled as its test would with the baseline the
 * worker reads) record a baseline with `-u`; then each hand edit of the issue
 * is applied to the file, and both the worker's read (no leniency) and the end
 * of the run (the gate) refuse it, naming the field, the stored and the derived
 * value, against a leaking store that the untampered baseline fails.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSmokeSuite, smokePlan } from '../support/smoke-suite.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type BaselineFile, baselineText, readBaselineMatch } from '../../src/suite/baseline.js'
import { baseOfRow, entryOfRepetitions, entryProblem } from '../../src/suite/baseline-evidence.js'
import { VITEST_COMMANDS } from '../../src/vitest/commands.js'
import { type FinishedRun, finishRun } from '../../src/report/finish-run.js'
import type { GatheredRecord } from '../../src/suite/gather.js'
import { resolveReporterOptions } from '../../src/suite/options.js'
import { baselineCheckOf, type SuitePlan } from '../../src/suite/probes.js'
import { isProbeRecord } from '../../src/suite/records.js'
import type { PredictionRow } from '../../src/tivarq/results.js'

let root: string
let plan: SuitePlan
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'timegrounded-evidence-'))
  plan = await smokePlan()
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Every probe run against a reference store, settled against the baseline at `baselinePath` as the worker reads it. */
function runSuite(store: 'oracle' | 'latest', baselinePath: string, update = false): Promise<GatheredRecord[]> {
  return runSmokeSuite(plan, store, readBaselineMatch(baselinePath, plan.identity, VITEST_COMMANDS, baselineCheckOf(plan)), update)
}

function finish(records: GatheredRecord[], baseline: string, update = false): FinishedRun {
  const options = resolveReporterOptions({ outputDir: join(root, 'out'), baseline, html: false }, 'test')
  return finishRun({
    records,
    root,
    options,
    update: { kind: update ? 'update' : 'none' },
    previous: null,
    shard: null,
    color: false,
    commands: VITEST_COMMANDS,
    cwd: root,
  })
}

/** Record a baseline of `store` with `-u` into `name`, and return its parsed file. */
async function record(store: 'oracle' | 'latest', name: string): Promise<BaselineFile> {
  const path = join(root, name)
  const recorded = finish(await runSuite(store, path, true), name, true)
  expect(recorded.text).toContain(`baseline written to ${name}: 60 probes`)
  return JSON.parse(readFileSync(path, 'utf8')) as BaselineFile
}

/** Write an edited copy of `file` as `name`; run the leaking store against it as a worker and a reporter would. */
async function againstEdited(file: BaselineFile, name: string, edit: (entry: BaselineFile['suites'][string]) => void) {
  const copy = structuredClone(file)
  edit(copy.suites.tivarq!)
  writeFileSync(join(root, name), `${JSON.stringify(copy, null, 2)}\n`)
  const worker = readBaselineMatch(join(root, name), plan.identity, VITEST_COMMANDS, baselineCheckOf(plan))
  const records = await runSuite('latest', join(root, name))
  const known = records.filter((gathered) => isProbeRecord(gathered.record) && gathered.record.decision === 'known_failure').length
  return { worker, finished: finish(records, name), known }
}

describe('a baseline is evidence', () => {
  let correct: BaselineFile
  let leaking: BaselineFile
  beforeAll(async () => {
    correct = await record('oracle', 'correct.baseline.json')
    leaking = await record('latest', 'leaking.baseline.json')
  })

  test("untampered, the correct store's baseline fails the leaking store; each probe's answers are kept, one line per probe", async () => {
    const finished = finish(await runSuite('latest', join(root, 'correct.baseline.json')), 'correct.baseline.json')
    expect(finished.failed).toBe(true)
    expect(finished.text).toMatch(/\d+ failed, 0 known failures/)
    const text = readFileSync(join(root, 'correct.baseline.json'), 'utf8')
    expect(text).toContain('"format": "timegrounded.baseline.v2"')
    expect(text).toMatch(/\n {8}"replacement-00-q3": \[\{"state":"known","value":"[^"]+"\}\],?\n/)
    expect(Object.keys(correct.suites.tivarq!.answers)).toHaveLength(60)
    expect(text).toBe(baselineText(correct))
  })

  test('a baseline whose answers are wrong is legitimate: the leaking store recorded passes against its own baseline', async () => {
    expect(Object.values(leaking.suites.tivarq!.probes)).toContain('wrong')
    const finished = finish(await runSuite('latest', join(root, 'leaking.baseline.json')), 'leaking.baseline.json')
    expect(finished.text).not.toContain('baseline refused')
    expect(finished.failed).toBe(false)
  })

  test('probes marked as known failures with lowered metrics: refused, naming the probe, the stored and the derived outcome', async () => {
    const wrongInLeaking = Object.entries(leaking.suites.tivarq!.probes).filter(([, outcome]) => outcome === 'wrong')
    const { worker, finished, known } = await againstEdited(correct, 'known-failures.json', (entry) => {
      for (const [probe] of wrongInLeaking) entry.probes[probe] = 'wrong'
      entry.metrics = leaking.suites.tivarq!.metrics
      entry.by_family = leaking.suites.tivarq!.by_family
    })
    const first = wrongInLeaking.map(([probe]) => probe).sort()[0]
    const reason = `probes.${first}: stored "wrong", derived from the recorded answers "correct"`
    expect(worker).toMatchObject({ status: 'refused' })
    expect(worker.status === 'refused' && worker.reason).toContain(reason)
    expect(known).toBe(0) // no leniency from a refused baseline
    expect(finished.text).toContain(`baseline refused: known-failures.json, suite "tivarq": ${reason}`)
    expect(finished.text).toContain('Re-record it with `npx vitest run -u`')
    expect(finished.text).not.toContain('gate passed')
    expect(finished.failed).toBe(true)
  })

  test('every probe wrong with the worst metrics: refused', async () => {
    const { finished } = await againstEdited(correct, 'all-wrong.json', (entry) => {
      for (const probe of Object.keys(entry.probes)) entry.probes[probe] = 'wrong'
      for (const value of Object.values(entry.metrics)) value.value = 0
    })
    expect(finished.text).toContain(
      'baseline refused: all-wrong.json, suite "tivarq": probes.add_vs_replace-00-q1: stored "wrong", derived from the recorded answers "correct"',
    )
    expect(finished.failed).toBe(true)
  })

  test('`metrics: {}`: refused, naming the first metric missing and its derived value', async () => {
    const { finished } = await againstEdited(correct, 'no-metrics.json', (entry) => {
      entry.metrics = {}
    })
    const first = Object.keys(correct.suites.tivarq!.metrics)[0]!
    const derived = correct.suites.tivarq!.metrics[first]!
    expect(finished.text).toContain(`metrics.${first}: stored (absent), derived from the recorded answers ${derived.value} over ${derived.cases} cases`)
    expect(finished.failed).toBe(true)
  })

  test('transitionSuccessRate 0.9 over 13 cases (not k/13): refused, naming the field and both values', async () => {
    const stored = correct.suites.tivarq!.metrics.transitionSuccessRate!
    expect(stored).toEqual({ value: 1, cases: 13 })
    const { finished } = await againstEdited(correct, 'not-a-ratio.json', (entry) => {
      entry.metrics.transitionSuccessRate = { value: 0.9, cases: 13 }
    })
    expect(finished.text).toContain(
      'baseline refused: not-a-ratio.json, suite "tivarq": metrics.transitionSuccessRate: stored 0.9 over 13 cases, derived from the recorded answers 1 over 13 cases',
    )
    expect(finished.failed).toBe(true)
  })

  test('answers edited without their figures, or a probe dropped: refused naming the field', async () => {
    const leakingProbe = Object.entries(leaking.suites.tivarq!.probes).find(([, outcome]) => outcome === 'wrong')![0]
    const { finished } = await againstEdited(correct, 'answers-only.json', (entry) => {
      entry.answers[leakingProbe] = leaking.suites.tivarq!.answers[leakingProbe]!
    })
    expect(finished.text).toContain(`probes.${leakingProbe}: stored "correct", derived from the recorded answers "wrong"`)
    const dropped = await againstEdited(correct, 'dropped.json', (entry) => {
      delete entry.answers['reversal-00-q2']
    })
    expect(dropped.finished.text).toContain('answers.reversal-00-q2: absent, but the suite has this probe')
    expect(dropped.finished.failed).toBe(true)
  })

  test('a baseline of the earlier format (figures without answers) is refused, naming the fix', async () => {
    const { answers: _answers, ...figures } = correct.suites.tivarq!
    writeFileSync(join(root, 'v1.json'), `${JSON.stringify({ format: 'timegrounded.baseline.v1', harness_version: '0.1.0', suites: { tivarq: figures } })}\n`)
    expect(() => readBaselineMatch(join(root, 'v1.json'), plan.identity, VITEST_COMMANDS)).toThrow(
      /v1\.json is a baseline of an earlier format \(timegrounded\.baseline\.v1\).*Re-record it with `npx vitest run -u`\./,
    )
    const finished = finish(await runSuite('oracle', join(root, 'missing.json')), 'v1.json')
    expect(finished.text).toContain('v1.json is a baseline of an earlier format (timegrounded.baseline.v1)')
    expect(finished.failed).toBe(true)
  })

  test("with repeats, the per-episode counts and flaky probes must follow from each repetition's answers too", async () => {
    // Two repetitions: the correct store's rows, and the leaking store's (so the counts differ between them).
    const rowsOf = async (store: 'oracle' | 'latest') =>
      (await runSuite(store, join(root, 'none.json'))).flatMap((gathered) => (isProbeRecord(gathered.record) ? [gathered.record.rows![0]!] : []))
    const first = await rowsOf('oracle')
    const second = (await rowsOf('latest')).map((row): PredictionRow => ({ ...row, repetition: 1 }))
    const entry = entryOfRepetitions(plan.identity, [first, second])
    const bases = first.map(baseOfRow)
    expect(entryProblem(entry, bases, true)).toBeNull()
    expect(Object.keys(entry.repeats!.flaky).length).toBeGreaterThan(0)

    const [episode, counts] = Object.entries(entry.repeats!.episodes).find(([, metrics]) => metrics.staleValueLeakageRate !== undefined)!
    const edited = structuredClone(entry)
    edited.repeats!.episodes[episode]!.staleValueLeakageRate = counts.staleValueLeakageRate!.replace(/^\d+/, '0')
    if (edited.repeats!.episodes[episode]!.staleValueLeakageRate === counts.staleValueLeakageRate)
      edited.repeats!.episodes[episode]!.staleValueLeakageRate = '1/1 1/1'
    expect(entryProblem(edited, bases, true)).toContain(`repeats.episodes.${episode}.staleValueLeakageRate: stored "`)

    const noFlaky = structuredClone(entry)
    noFlaky.repeats!.flaky = {}
    expect(entryProblem(noFlaky, bases, true)).toMatch(/^repeats\.flaky\.[\w-]+: stored \(absent\), derived from the recorded answers 1$/)

    const short = structuredClone(entry)
    short.answers['reversal-00-q2'] = short.answers['reversal-00-q2']!.slice(0, 1)
    expect(entryProblem(short, bases, true)).toBe("answers.reversal-00-q2: holds 1 repetitions' answers, not 2")
  })
})
