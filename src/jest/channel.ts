/**
 * How records travel from Jest's test workers to the reporter. Jest gives a
 * test result no field for data of our own, so each test file appends its
 * records (one JSON line per probe, as the probe finishes) to a side file in
 * a run directory the reporter made; the reporter names that directory, the
 * baseline and the update mode in an environment variable its workers
 * inherit (Jest builds the reporters before it starts each run's workers).
 * Nothing here imports Jest.
 */
import { createHash } from 'node:crypto'
import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { GatheredRecord } from '../suite/gather.js'
import { type IsolationOutcome, isIsolationOutcome, type WorkerContext } from '../suite/records.js'
import { isModelCalls } from '../suite/model-calls.js'
import type { ModelCallCounts } from '../tivarq/report-shape.js'
import { readJsonLinesFile } from '../tivarq/json-lines.js'
import { MAX_PREDICTION_LINE_CHARS } from '../limits.js'

/** The environment variable the reporter sets and the workers read. */
export const CONTEXT_VARIABLE = 'TIMEGROUNDED_JEST_CONTEXT'

/** What the Jest reporter hands its workers. */
export interface JestWorkerContext extends WorkerContext {
  /** Where test files append their records: `<runDir>/records/<sha1 of the test path>.jsonl`. */
  runDir: string
}

/** The context the reporter set, or null when no timegrounded reporter runs (records then go nowhere). */
export function readWorkerContext(environment: NodeJS.ProcessEnv = process.env): JestWorkerContext | null {
  const raw = environment[CONTEXT_VARIABLE]
  if (raw === undefined || raw === '') return null
  try {
    const parsed = JSON.parse(raw) as Partial<JestWorkerContext>
    if (typeof parsed.runDir !== 'string' || typeof parsed.update !== 'boolean') return null
    return { runDir: parsed.runDir, update: parsed.update, baselinePath: typeof parsed.baselinePath === 'string' ? parsed.baselinePath : null }
  } catch {
    return null
  }
}

/**
 * One line of a side file: a test's record, an error of a whole suite (its store failed to start or
 * close), or what a suite's isolation check came to once its episodes were over and the model calls it made.
 */
export type SideLine =
  | { testPath: string; record: unknown }
  | { testPath: string; suite: string; blockError: string }
  | { testPath: string; suite: string; isolation: IsolationOutcome }
  | { testPath: string; suite: string; modelCalls: ModelCallCounts }

/** The side file of one test file. */
export function sideFileOf(runDir: string, testPath: string): string {
  return join(runDir, 'records', `${createHash('sha1').update(testPath).digest('hex')}.jsonl`)
}

/** Append lines to a test file's side file (synchronously: a worker that dies loses at most the line in flight). */
export function appendSideLines(runDir: string, lines: readonly SideLine[]): void {
  if (lines.length === 0) return
  const file = sideFileOf(runDir, lines[0]!.testPath)
  mkdirSync(join(runDir, 'records'), { recursive: true })
  appendFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
}

/** Forget a test file's records (before it runs again). */
export function clearSideFile(runDir: string, testPath: string): void {
  rmSync(sideFileOf(runDir, testPath), { force: true })
}

/** The records a test file left, with the errors of its suites attached. */
export interface SideFile {
  testPath: string
  records: GatheredRecord[]
}

/**
 * Every side file of a run directory, read back: each record with the
 * errors of its suite in that file. A torn last line (a worker killed while
 * writing) is skipped; files of test files that no longer exist are dropped.
 */
export function readSideFiles(runDir: string): SideFile[] {
  const dir = join(runDir, 'records')
  if (!existsSync(dir)) return []
  const files: SideFile[] = []
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.jsonl')) continue
    const lines: SideLine[] = []
    // Through the one JSON-lines reader, a line at a time: a line that is not text (not UTF-8, over the limit) is torn like one cut short.
    readJsonLinesFile(join(dir, name), MAX_PREDICTION_LINE_CHARS, (line) => {
      if (line.kind !== 'text' || line.text.trim() === '') return
      try {
        lines.push(JSON.parse(line.text) as SideLine)
      } catch {
        // A torn line from a worker that died mid-write: the probe it carried did not finish.
      }
    })
    const testPath = lines[0]?.testPath
    if (testPath === undefined || !existsSync(testPath)) continue
    files.push({ testPath, records: gatheredOf(testPath, lines) })
  }
  return files.sort((a, b) => a.testPath.localeCompare(b.testPath))
}

/** A side file's lines as gathered records: each record carries the block errors of its suite in that file. */
export function gatheredOf(testPath: string, lines: readonly SideLine[]): GatheredRecord[] {
  const errors = new Map<string, string[]>()
  const isolation = new Map<string, IsolationOutcome>()
  const modelCalls = new Map<string, ModelCallCounts>()
  for (const line of lines) {
    if ('isolation' in line && isIsolationOutcome(line.isolation)) isolation.set(line.suite, line.isolation)
    if ('modelCalls' in line && isModelCalls(line.modelCalls)) modelCalls.set(line.suite, line.modelCalls)
    if (!('blockError' in line)) continue
    const list = errors.get(line.suite) ?? []
    if (!list.includes(line.blockError)) list.push(line.blockError)
    errors.set(line.suite, list)
  }
  return lines.flatMap((line) => {
    if (!('record' in line)) return []
    const suite = (line.record as { suite?: { name?: unknown } } | null)?.suite?.name
    const gathered: GatheredRecord = { file: testPath, record: line.record, blockErrors: typeof suite === 'string' ? (errors.get(suite) ?? []) : [] }
    const outcome = typeof suite === 'string' ? isolation.get(suite) : undefined
    if (outcome !== undefined) gathered.isolation = outcome
    const calls = typeof suite === 'string' ? modelCalls.get(suite) : undefined
    if (calls !== undefined) gathered.modelCalls = calls
    return [gathered]
  })
}
