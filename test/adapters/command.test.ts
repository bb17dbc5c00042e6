/**
 * Faults of real adapter processes (test/fixtures/adapters/fault-adapter.mjs):
 * each becomes a recorded error with a clear message, the run goes on with the
 * next episode (restarting a dead process), and nothing hangs. The faulty
 * episode is reversal-00, the second of the smoke split; its probes q1 and q2
 * come after event 3, q3 after event 4, q4 and q5 after event 5.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { commandAdapter } from '../../src/adapters/command.js'
import { AdapterRefusedError, AdapterStartError, AdapterUsageError } from '../../src/adapters/errors.js'
import { openPool } from '../../src/harness/pool.js'
import { loadSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { runSplit } from '../../src/harness/runner.js'
import { predictionLine } from '../../src/harness/result-files.js'

const FAULT_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/fault-adapter.mjs', import.meta.url))
const FAULTY = 'reversal-00'
// The per-call limit of the hang scenarios. It bounds the start-up handshake too, so it leaves room for a
// node process to start on a loaded machine (400 ms did not).
const HANG_MS = 2_000
let smoke: LoadedSplit
let workDir: string
let clean: PredictionRow[]

/** Rows minus timings (latency and, when measured, update lag). */
function withoutLatency(rows: PredictionRow[]) {
  return rows.map((row) => {
    const { latency_ms: _latency, ...rest } = row
    return 'update_lag_ms' in rest ? { ...rest, update_lag_ms: rest.update_lag_ms === null ? null : 'measured' } : rest
  })
}

async function runMode(mode: string, timeoutMs = 5_000, concurrency = 1) {
  const log = join(workDir, `${mode}-${Math.random().toString(36).slice(2)}.log`)
  const spec = commandAdapter([process.execPath, FAULT_ADAPTER, mode, FAULTY], { env: { FAULT_LOG: log } })
  const pool = await openPool(spec, { track: 'structured', timeoutMs, concurrency })
  const rows = await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool, options: { track: 'structured' }, concurrency })
  await pool.close()
  const lines = readFileSync(log, 'utf8').split('\n')
  const pids = lines.filter((line) => line.startsWith('start ')).map((line) => line.slice(6))
  const faulty = rows.filter((row) => row.episode_id === FAULTY)
  const others = rows.filter((row) => row.episode_id !== FAULTY)
  return { rows, faulty, others, pids, lines }
}

beforeAll(async () => {
  smoke = await loadSplit(undefined, 'smoke')
  workDir = mkdtempSync(join(tmpdir(), 'timegrounded-faults-'))
  clean = (await runMode('none')).rows
})
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

/** Every episode but the faulty one answered exactly as in a clean run. */
function expectOthersUntouched(others: PredictionRow[]) {
  expect(withoutLatency(others)).toEqual(withoutLatency(clean.filter((row) => row.episode_id !== FAULTY)))
  expect(others.every((row) => row.status === 'answered')).toBe(true)
}

test('a clean run of the fault adapter answers all 60 smoke probes from one process', async () => {
  expect(clean).toHaveLength(60)
  expect(clean.every((row) => row.status === 'answered')).toBe(true)
})

describe('fatal faults: the process is killed or dead, the episode is abandoned, a new process serves the next episode', () => {
  test('a call past the timeout', async () => {
    const { faulty, others, pids, lines } = await runMode('hang-query', HANG_MS)
    expect(faulty[0]).toMatchObject({ status: 'error', probe_id: 'reversal-00-q1' })
    expect(faulty[0]!.error).toBe(
      `query: adapter \`${process.execPath} ${FAULT_ADAPTER} hang-query ${FAULTY}\` did not answer query within ${HANG_MS} ms (its call timeout, \`timeoutMs\`); the process was killed`,
    )
    // The timed-out call is recorded as timed (its latency kept); how long it took is not asserted (no wall-clock checks).
    expect(faulty[0]!.latency_ms).toEqual(expect.any(Number))
    for (const row of faulty.slice(1)) {
      expect(row.status).toBe('error')
      expect(row.error).toMatch(
        /^abandoned: the adapter failed at probe reversal-00-q1 and lost the episode's memory \(query: adapter .* did not answer query within 2000 ms/,
      )
    }
    expectOthersUntouched(others)
    // The hung process was given up on and a second one served every later episode: the second starts after the
    // first's last request (order, not time; the run finishing at all shows the hang did not stall it).
    expect(pids).toHaveLength(2)
    const lastOfFirst = lines.map((line, index) => (line.startsWith(`${pids[0]} `) ? index : -1)).reduce((a, b) => Math.max(a, b))
    expect(lines.indexOf(`start ${pids[1]}`)).toBeGreaterThan(lastOfFirst)
  })

  test('a call past the timeout during ingest', async () => {
    const { faulty, others, pids } = await runMode('hang-ingest', HANG_MS)
    expect(faulty.map((row) => row.status)).toEqual(['error', 'error', 'error', 'error', 'error'])
    for (const row of faulty) expect(row.error).toMatch(/^ingest: adapter .* did not answer ingest within 2000 ms/)
    expectOthersUntouched(others)
    expect(pids).toHaveLength(2)
  })

  test('a process that exits mid-episode', async () => {
    const { faulty, others, pids } = await runMode('exit')
    const message = `ingest: adapter process \`${process.execPath} ${FAULT_ADAPTER} exit ${FAULTY}\` exited with code 3; stderr ends with: fault-adapter: giving up on purpose`
    // Spec: an ingest failure makes that and every later probe of the episode an error, with the same message.
    expect(faulty.map((row) => [row.status, row.error])).toEqual(faulty.map(() => ['error', message]))
    expectOthersUntouched(others)
    expect(pids).toHaveLength(2)
  })

  test('a process that crashes (uncaught exception)', async () => {
    const { faulty, others, pids } = await runMode('crash')
    expect(faulty[0]!.error).toMatch(/^query: adapter process `.*` exited with code 1; stderr ends with: .*Error: deliberate crash in query/s)
    expect(faulty.slice(1).every((row) => row.status === 'error' && row.error.startsWith('abandoned: '))).toBe(true)
    expectOthersUntouched(others)
    expect(pids).toHaveLength(2)
  })

  test('a process killed by a signal', async () => {
    const { faulty, others, pids } = await runMode('signal')
    expect(faulty[0]!.error).toMatch(/^query: adapter process `.*` was killed by signal SIGKILL$/)
    expectOthersUntouched(others)
    expect(pids).toHaveLength(2)
  })

  test('a line on stdout that is not JSON', async () => {
    const { faulty, others, pids } = await runMode('non-json')
    expect(faulty[0]!.error).toMatch(
      /^query: adapter `.*` answered query with a line that is not JSON: "thinking about it\.\.\."; write diagnostics to stderr, not stdout$/,
    )
    expectOthersUntouched(others)
    expect(pids).toHaveLength(2)
  })

  test('a stdout line over 16 MiB without a newline', async () => {
    const { faulty, others, pids } = await runMode('huge-line', HANG_MS)
    // The line is counted and dropped as it comes (never held): the call times out saying how far past the limit it got.
    expect(faulty[0]!.error).toMatch(
      /^query: adapter `.*` did not answer query within 2000 ms \(its call timeout, `timeoutMs`\); it had written 17825792 characters of a reply line, over the limit of 1048576 \(MAX_REPLY_LINE_CHARS\), without its newline; the process was killed$/,
    )
    expectOthersUntouched(others)
    expect(pids).toHaveLength(2)
  })

  test('an extra line on stdout', async () => {
    const { faulty, others, pids } = await runMode('extra-line')
    // q1 got its (first) reply; the stray second line is caught before the next request.
    expect(faulty[0]!.status).toBe('answered')
    expect(faulty[1]!.error).toMatch(
      /^advance_clock: adapter `.*` wrote an extra line to stdout that answers no request: "\{\\"state\\":\\"known\\",\\"value\\":\\"light\\"\}"; write exactly one line per request and send diagnostics to stderr$/,
    )
    expect(faulty.slice(2).every((row) => row.status === 'error' && row.error.startsWith('abandoned: the adapter failed at probe reversal-00-q2'))).toBe(true)
    expectOthersUntouched(others)
    expect(pids).toHaveLength(2)
  })

  test('a reply of the wrong kind (replies out of step): an ack to a query', async () => {
    const { faulty, others, pids } = await runMode('ack-for-query')
    expect(faulty[0]!.error).toMatch(
      /^query: adapter `.*` answered query with "\{\\"ok\\":true\}", a reply to another kind of request: its replies are out of step with the requests; write exactly one line per request$/,
    )
    expect(faulty.slice(1).every((row) => row.status === 'error' && row.error.startsWith('abandoned: '))).toBe(true)
    expectOthersUntouched(others)
    expect(pids).toHaveLength(2)
  })

  test('a reply of the wrong kind (replies out of step): an answer to an ingest', async () => {
    const { faulty, others, pids } = await runMode('answer-for-ingest')
    for (const row of faulty) expect(row.error).toMatch(/^ingest: adapter `.*` answered ingest with .*, a reply to another kind of request/)
    expectOthersUntouched(others)
    expect(pids).toHaveLength(2)
  })

  test('a flood of stderr followed by a crash: the message quotes a bounded tail', async () => {
    const { faulty, others, pids } = await runMode('flood-crash')
    const error = faulty[0]!.error!
    expect(error).toMatch(/^query: adapter process `.*` exited with code 4; stderr ends with: \.\.\.x+\nfinal words before exiting$/)
    expect(error.length).toBeLessThan(1_000)
    expectOthersUntouched(others)
    expect(pids).toHaveLength(2)
  })
})

describe('recoverable faults: the row is an error, the process and the episode go on', () => {
  test('a flood of stderr (1 MB on every call of an episode) neither blocks nor fails the run', async () => {
    const { rows, pids } = await runMode('flood')
    expect(withoutLatency(rows)).toEqual(withoutLatency(clean))
    expect(pids).toHaveLength(1)
  })

  test('acknowledgements with extra fields (even a "state") are accepted, as the upstream harness accepts them', async () => {
    const { rows, pids } = await runMode('ack-with-extras')
    expect(withoutLatency(rows)).toEqual(withoutLatency(clean))
    expect(pids).toHaveLength(1)
  })

  test('an invalid state', async () => {
    const { faulty, others, pids } = await runMode('invalid-state')
    for (const row of faulty) {
      expect(row.status).toBe('error')
      expect(row.error).toBe(
        'query: the answer {"state":"maybe","value":null} fails answerSchema: state: Invalid option: expected one of "known"|"unknown"|"withdrawn"|"needs_clarification"|"expired"',
      )
    }
    expectOthersUntouched(others)
    expect(pids).toHaveLength(1)
  })

  test('an {"error": …} reply to a query', async () => {
    const { faulty, others, pids } = await runMode('error-reply')
    expect(faulty.map((row) => row.error)).toEqual(faulty.map(() => 'query: adapter replied error: database is locked'))
    expectOthersUntouched(others)
    expect(pids).toHaveLength(1)
  })

  test('a valid reply line of a million characters (within MAX_REPLY_LINE_CHARS) is read whole', async () => {
    const { faulty, pids } = await runMode('big-reply', 20_000)
    expect(faulty.every((row) => row.status === 'answered')).toBe(true)
    expect(pids).toHaveLength(1)
  })

  test('a 10 MB answer on every query is an invalid answer naming its size and the limit; the process goes on and no row holds the value', async () => {
    const { faulty, others, pids } = await runMode('ten-mb', 20_000)
    const length = `{"state":"known","value":""}`.length + 10 * 1024 * 1024
    for (const row of faulty) {
      expect(row.status).toBe('error')
      expect(row.error).toMatch(/^query: adapter `.*` answered query with a line of /)
      // The line's start is quoted as it was sent (cut); its length and the limit are named.
      expect(row.error).toContain(
        `answered query with a line of ${length} characters, over the limit of 1048576 (MAX_REPLY_LINE_CHARS); it begins ${JSON.stringify(`{"state":"known","value":"${'v'.repeat(91)}...`)}`,
      )
      expect(predictionLine(row).length).toBeLessThan(1_000)
    }
    expectOthersUntouched(others)
    expect(pids).toHaveLength(1)
  })

  test('a message quotes the reply as received: 1e400 is not shown as the null its parsed Infinity would print as', async () => {
    const { faulty, pids } = await runMode('number-overflow')
    for (const row of faulty) {
      expect(row.error).toBe('query: the answer {"state":"known","value":1e400} fails answerSchema: value: expected a string, a list of strings or null')
    }
    expect(pids).toHaveLength(1)
  })

  test('usage and cost that are not finite or negative are invalid answers naming the wire field and its bound', async () => {
    const { faulty, others, pids } = await runMode('usage-overflow')
    for (const row of faulty) {
      expect(row.error).toBe(
        'query: the answer {"state": "unknown", "value": null, "usage": {"prompt_tokens": 1e400, "completion_tokens": 2}, "cost_usd": -3} is refused: ' +
          'usage.prompt_tokens: Infinity is not a whole number from 0 to 1000000000 (MAX_REPORTED_TOKENS); cost_usd: -3 is not a number of US dollars from 0 to 1000000 (MAX_REPORTED_COST_USD)',
      )
    }
    expectOthersUntouched(others)
    expect(pids).toHaveLength(1)
  })

  test('an {"error": …} reply to advance_clock', async () => {
    const { faulty, pids } = await runMode('error-clock')
    expect(faulty.map((row) => row.error)).toEqual(faulty.map(() => 'advance_clock: adapter replied error: clock is frozen'))
    expect(pids).toHaveLength(1)
  })

  test('an {"error": …} reply to ingest stops the episode (spec: ingest failure)', async () => {
    const { faulty, others, pids, lines } = await runMode('error-ingest')
    expect(faulty.map((row) => row.error)).toEqual(faulty.map(() => 'ingest: adapter replied error: disk full'))
    // Ingestion stopped: only two ingests of reversal-00 were ever sent.
    const reversalIngests = lines.filter((line) => line.includes('"type":"ingest"') && line.includes('"reversal-00-e'))
    expect(reversalIngests).toHaveLength(2)
    expectOthersUntouched(others)
    expect(pids).toHaveLength(1)
  })
})

describe('refusals and start failures stop the run before it begins', () => {
  test('a wrong protocol', async () => {
    const spec = commandAdapter([process.execPath, FAULT_ADAPTER, 'wrong-protocol'])
    const error = await openPool(spec, { track: 'structured' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AdapterRefusedError)
    expect(error).toMatchObject({
      code: 'ADAPTER_REFUSED',
      message: `adapter \`${process.execPath} ${FAULT_ADAPTER} wrong-protocol\` declared protocol "tivarq.adapter.v0"; the harness speaks "tivarq.adapter.v1". Reply to {"type":"capabilities"} with "protocol":"tivarq.adapter.v1".`,
    })
  })

  test('the requested track not declared', async () => {
    const spec = commandAdapter([process.execPath, FAULT_ADAPTER, 'no-track'])
    await expect(openPool(spec, { track: 'structured' })).rejects.toMatchObject({
      code: 'ADAPTER_REFUSED',
      message: `adapter \`${process.execPath} ${FAULT_ADAPTER} no-track\` declared tracks [conversation], not the requested structured track. Declare "structured" in its capabilities' tracks, or run another track.`,
    })
  })

  test('a process that dies before the handshake', async () => {
    const error = await openPool(commandAdapter([process.execPath, FAULT_ADAPTER, 'no-start']), { track: 'structured' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AdapterStartError)
    expect((error as AdapterStartError).message).toMatch(
      /^could not start adapter `.*no-start`: the capabilities handshake failed: adapter process `.*` exited with code 2; stderr ends with: ImportError: No module named memory_backend$/,
    )
    expect((error as AdapterStartError).reason).toMatch(/^the capabilities handshake failed: adapter process/)
  })

  test('a process that never answers the handshake', async () => {
    const error = await openPool(commandAdapter([process.execPath, FAULT_ADAPTER, 'silent-start'], { timeoutMs: 300 }), { track: 'structured' }).catch(
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ code: 'ADAPTER_START_FAILED', message: expect.stringContaining('did not answer capabilities within 300 ms') })
  })

  test('a command that does not exist', async () => {
    await expect(openPool(commandAdapter(['./no-such-adapter-here']), { track: 'structured' })).rejects.toMatchObject({
      code: 'ADAPTER_START_FAILED',
      message: expect.stringContaining(
        'could not start adapter `./no-such-adapter-here`: spawn ./no-such-adapter-here ENOENT. Check that the command exists and is executable.',
      ),
      // The reason travels apart from the store it names, so a caller can name the store its own way.
      reason: 'spawn ./no-such-adapter-here ENOENT. Check that the command exists and is executable.',
    })
  })

  test('commandAdapter refuses bad arguments with a stable code, naming the culprit and the fix', () => {
    const refused = (call: () => unknown) => {
      try {
        call()
      } catch (error) {
        expect(error).toBeInstanceOf(AdapterUsageError)
        return { code: (error as AdapterUsageError).code, message: (error as Error).message }
      }
      throw new Error('expected commandAdapter to throw')
    }
    expect(refused(() => commandAdapter([]))).toEqual({
      code: 'ADAPTER_COMMAND_INVALID',
      message: "commandAdapter(argv) needs a non-empty command as an array of strings; got []. Pass e.g. commandAdapter(['python3', 'adapter.py']).",
    })
    expect(refused(() => commandAdapter('python3 adapter.py' as unknown as string[])).message).toContain('got "python3 adapter.py"')
    expect(refused(() => commandAdapter(['python3', 7 as unknown as string]))).toEqual({
      code: 'ADAPTER_COMMAND_INVALID',
      message: 'commandAdapter(argv): argv[1] is 7, not a string; every argument must be a string (the command runs without a shell).',
    })
    expect(refused(() => commandAdapter(['python3'], { timeoutMs: 0 }))).toEqual({
      code: 'ADAPTER_COMMAND_INVALID',
      message:
        'commandAdapter option `timeoutMs` must be a positive number of milliseconds; got 0. Pass e.g. `timeoutMs: 30000`, or leave it out for the default (30000).',
    })
    expect(refused(() => commandAdapter(['python3'], { env: { PORT: 8080 as unknown as string } }))).toEqual({
      code: 'ADAPTER_COMMAND_INVALID',
      message: 'commandAdapter option `env`: `PORT` must be a string; convert it with String().',
    })
  })
})

test('a pool of 3 processes runs episodes concurrently and gives the same rows as one process', async () => {
  const { rows, pids } = await runMode('none', 5_000, 3)
  expect(withoutLatency(rows)).toEqual(withoutLatency(clean))
  expect(new Set(pids).size).toBe(3)
})

const python = (() => {
  try {
    return spawnSync('python3', ['--version']).status === 0
  } catch {
    return false
  }
})()

describe.skipIf(!python)('an upstream-style Python adapter runs unchanged (skipped when python3 is not on PATH)', () => {
  test('python3 upstream_latest_adapter.py answers like the latest reference store', async () => {
    const script = fileURLToPath(new URL('../fixtures/adapters/upstream_latest_adapter.py', import.meta.url))
    const pool = await openPool(commandAdapter(['python3', script]), { track: 'structured' })
    expect(pool.info()).toEqual({
      name: `python3 ${script}`,
      command: ['python3', script],
      adapterVersion: 'py-latest-1',
      capabilities: { clock: false, history: false, inspection: false, tracks: ['structured'] },
    })
    const rows = await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool, options: { track: 'structured' } })
    await pool.close()
    const { referenceStore } = await import('../../src/adapters/reference/index.js')
    const builtin = await openPool(referenceStore('latest'), { track: 'structured' })
    const expected = await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool: builtin, options: { track: 'structured' } })
    const strip = (list: PredictionRow[]) =>
      list.map((row) => ({ probe_id: row.probe_id, status: row.status, state: row.prediction?.state, value: row.prediction?.value }))
    expect(strip(rows)).toEqual(strip(expected))
    const answered = rows.find((row) => row.status === 'answered' && row.prediction.state === 'known')!
    // What the adapter reported beside its answer stays inside the prediction, where upstream keeps it.
    expect(answered).toMatchObject({ prediction: { raw_answer: expect.any(String), usage: { prompt_tokens: 3, completion_tokens: 1 } } })
  })
})
