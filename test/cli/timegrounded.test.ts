/**
 * `timegrounded corpus` and `timegrounded probe`, run as real subprocesses of
 * the built CLI (dist/cli/main.js; `npm test` builds first).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { createHash } from 'node:crypto'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const SHIPPED = fileURLToPath(new URL('../../fixtures/timegrounded/timegrounded-v1.json', import.meta.url))
const AGENT = fileURLToPath(new URL('../time-grounded/fixtures/agent.mjs', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'tg-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function timegrounded(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  // In the scratch directory: `probe` writes its HTML report to .timegrounded/ there.
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('timegrounded corpus', () => {
  test('writes the corpus identical to the shipped fixture', () => {
    const out = join(dir, 'nested', 'corpus.json')
    const run = timegrounded(['corpus', '--out', out])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^wrote 12 questions of timegrounded-timegrounded-v1 to .*corpus\.json \(sha256 [0-9a-f]{64}\)\n$/)
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(SHIPPED, 'utf8'))
  })

  test('--out (or --check) is required', () => {
    const run = timegrounded(['corpus'])
    expect(run.status).toBe(2)
    expect(run.stderr).toBe('timegrounded corpus: give `--out FILE` to write a corpus, or `--check FILE` to check one.\n')
  })

  test('--size N --seed S writes the generated corpus (its bytes pinned by hash), and probe reads it by its id', () => {
    const out = join(dir, 'generated-60.json')
    const run = timegrounded(['corpus', '--size', '60', '--seed', '7', '--out', out])
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^wrote 60 questions of timegrounded-generated-v1-seed7-n60 to .*generated-60\.json \(sha256 3ed623e8bd68[0-9a-f]{52}\)\n$/)
    // A fixed hash, not the generator's output in this process: a change to the generator must show here.
    const text = readFileSync(out, 'utf8')
    expect(createHash('sha256').update(text).digest('hex')).toBe('3ed623e8bd685831bbea057aa880491bd266491caa54bb3de4e921d08c26ed3c')
    expect((JSON.parse(text) as unknown[]).length).toBe(60)
    const probe = timegrounded(['probe', '--dataset', out, '--agent', 'builtin:ingestion-order', '--json'])
    expect(probe.status, probe.stderr).toBe(0)
    const result = JSON.parse(probe.stdout) as {
      control: { accuracy: number; grounding: { dataset_id: string } }
      probe: { accuracy: number }
      delta: { n: number }
    }
    expect(result.control.grounding.dataset_id).toBe('timegrounded-generated-v1-seed7-n60')
    // The scripted readers know a generated question by its id: the control reads every date from the text.
    expect(result.control.accuracy).toBe(1)
    expect(result.probe.accuracy).toBeLessThan(0.5)
    expect(result.delta.n).toBe(60)
  })

  test('--seed without --size, and a size out of range, are usage errors', () => {
    const seedOnly = timegrounded(['corpus', '--seed', '7', '--out', join(dir, 'x.json')])
    expect(seedOnly.status).toBe(2)
    expect(seedOnly.stderr).toContain('`--seed` picks a generated corpus, so it needs `--size N`')
    const tooBig = timegrounded(['corpus', '--size', '100001', '--out', join(dir, 'y.json')])
    expect(tooBig.status).toBe(2)
    expect(tooBig.stderr).toContain("option '--size <n>' argument '100001' is invalid. expected a whole number from 1 to 100000 (OPTION_RANGES.corpusSize).")
  })
})

describe('timegrounded probe', () => {
  test('--ceiling with a single mode is refused rather than ignored', () => {
    const run = timegrounded(['probe', '--mode', 'none', '--ceiling'])
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain('`--ceiling` runs beside control and probe, so it needs `--mode compare` (the default); drop `--mode none` or `--ceiling`.')
  })

  test('--help ends with examples and the exit codes, as `run --help` does', () => {
    const run = timegrounded(['probe', '--help'])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('  timegrounded probe --mode timestamps-only -- python3 my_agent.py')
    expect(run.stdout).toContain('Exit codes: 0 ran, 1 a run had agent or judge errors, 2 usage or data error')
  })

  test('compare (default) prints control, probe, delta with interval and counts, and the caveat', () => {
    const run = timegrounded(['probe', '--dataset', SHIPPED, '--agent', 'builtin:ingestion-order', '--ceiling'])
    // Not a terminal: progress is a plain line on stderr every 25% of the 36 questions (control, probe, ceiling).
    expect(run.stderr).toBe([9, 18, 27, 36].map((done) => `probe: ${done}/36 questions (${(done * 100) / 36}%), 0 errors\n`).join(''))
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('Time-grounded probe: ingestion-order on timegrounded-timegrounded-v1')
    expect(run.stdout).toContain('control (timestamps-and-text)  100.0% (12/12)')
    expect(run.stdout).toMatch(/probe {3}\(timestamps-only\) {6}\d+\.\d% \(\d+\/12\)/)
    expect(run.stdout).toMatch(
      /delta {3}\(probe − control\) {6}-\d+\.\d pts, 95% CI \[-\d+\.\d, -\d+\.\d\] \(paired bootstrap over 12 questions, seed 20240101, 1000 resamples\)/,
    )
    expect(run.stdout).toContain('ceiling (reference reader)     100.0% (12/12)')
    expect(run.stdout).toContain('  A drop under the probe (its 95% interval lies below zero)')
    expect(run.stdout).toContain('Twelve questions is a probe, not a ranking')
  })

  test('--json prints the full comparison; the honest agent shows no drop', () => {
    const run = timegrounded(['probe', '--agent', 'builtin:honest', '--json'])
    expect(run.status).toBe(0)
    const result = JSON.parse(run.stdout)
    expect(result.control).toMatchObject({ mode: 'timestamps-and-text', questions: 12, correct: 12 })
    expect(result.probe).toMatchObject({ mode: 'timestamps-only', questions: 12, correct: 12 })
    expect(result.delta).toMatchObject({ value: 0, n: 12 })
    expect(result.verdict).toMatchObject({ kind: 'timestamps_honoured', ceiling: 'perfect' })
    expect(result.probe.judge).toMatchObject({ kind: 'deterministic', model: null, prompt_fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(result.probe.rows).toHaveLength(12)
  })

  test('an agent that ignores time entirely: the same score in both modes, and the verdict is "cannot tell", in text and in --json', () => {
    const text = timegrounded(['probe', '--', process.execPath, AGENT], { TG_AGENT_ANSWER: 'Yes.' })
    expect(text.stdout).toContain('  delta   (probe − control)      ±0.0 pts, 95% CI [0.0, 0.0]')
    expect(text.stdout).toContain(
      '  Cannot tell: no drop, but the control’s 25.0% is under the 75% the control needs on its own, so the agent fails with or without printed dates; a zero delta only says its score does not depend on them.',
    )
    expect(text.stdout).not.toContain('honours the timestamps')
    expect(text.status).toBe(0)
    const json = timegrounded(['probe', '--json', '--', process.execPath, AGENT], { TG_AGENT_ANSWER: 'Yes.' })
    expect(JSON.parse(json.stdout).verdict).toMatchObject({ kind: 'cannot_tell', ceiling: 'perfect', control_vs_ceiling: { value: -0.75, n: 12 } })
  })

  test('--dry-run --json prints only the grounding record and calls no agent', () => {
    const run = timegrounded(['probe', '--dataset', SHIPPED, '--mode', 'timestamps-only', '--dry-run', '--json'])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const record = JSON.parse(run.stdout)
    expect(Object.keys(record).sort()).toEqual(
      [
        'dataset_id',
        'dataset_sha256',
        'earliest',
        'latest',
        'mode',
        'questions',
        'scaffolding_removed',
        'sessions',
        'sessions_timestamped',
        'sessions_with_date_like_content',
        'turns',
        'turns_timestamped',
      ].sort(),
    )
    expect(record).toMatchObject({
      mode: 'timestamps-only',
      questions: 12,
      sessions_timestamped: 27,
      turns_timestamped: 60,
      scaffolding_removed: true,
      earliest: '2024-01-06T10:12:00Z',
      latest: '2024-11-28T09:10:00Z',
      dataset_id: 'timegrounded-timegrounded-v1',
    })
  })

  test('--dry-run refuses an agent', () => {
    const run = timegrounded(['probe', '--dry-run', '--agent', 'builtin:honest'])
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('`--dry-run` calls no agent')
  })

  test('a single mode with a command agent (-- COMMAND…)', () => {
    const run = timegrounded(['probe', '--mode', 'timestamps-only', '--', process.execPath, AGENT])
    expect(run.stderr).toBe(
      'probe: 3/12 questions (25%), 0 errors\nprobe: 6/12 questions (50%), 0 errors\nprobe: 9/12 questions (75%), 0 errors\nprobe: 12/12 questions (100%), 0 errors\n',
    )
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('fixture-agent under timestamps-only: 0.0% (0/12)')
  })

  test('a command agent without the typed channel: exit 2 before any question, naming mode and agent', () => {
    const run = timegrounded(['probe', '--', process.execPath, AGENT], { TG_AGENT_TYPED: '0' })
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain('Grounding mode `timestamps-and-text`')
    expect(run.stderr).toContain('agent "fixture-agent" does not implement `injectTimestampedHistory(history)`')
    expect(run.stderr).toContain('There is no text fallback')
    // The fix for a process is in its protocol, not in a TypeScript method.
    expect(run.stderr).toContain(
      'For an agent process: reply `"timestamped_history": true` to `{"type":"capabilities"}` and answer `{"type":"history",…}` requests with `{"ok":true}`.',
    )
  })

  test('an invalid dataset: exit 2 naming the entry and the field', () => {
    const file = join(dir, 'bad.json')
    const items = JSON.parse(readFileSync(SHIPPED, 'utf8'))
    items[3].haystack_sessions[0][1].role = 7
    writeFileSync(file, JSON.stringify(items))
    const run = timegrounded(['probe', '--dataset', file, '--dry-run'])
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('entry 3 (question_id "tg-asof-04"): haystack_sessions[0][1].role: Invalid input: expected string, received number')
  })

  test('an unparseable session date: exit 2 naming the question and the date as written', () => {
    const file = join(dir, 'bad-date.json')
    const items = JSON.parse(readFileSync(SHIPPED, 'utf8'))
    items[6].haystack_dates[1] = '2024/09/31 (Tue) 13:25'
    writeFileSync(file, JSON.stringify(items))
    const run = timegrounded(['probe', '--dataset', file, '--agent', 'builtin:honest'])
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain('question "tg-current-03": haystack_dates[1] "2024/09/31 (Tue) 13:25" is not a readable date (no such calendar day)')
  })

  describe('mode none reads every date too, before the agent is started', () => {
    // An agent that logs its start and every request it receives, so "never called" can be checked from outside.
    const loggingAgent = join(dir, 'logging-agent.mjs')
    writeFileSync(
      loggingAgent,
      // biome-ignore-start lint/suspicious/noTemplateCurlyInString: these lines are the agent's own JavaScript, template literals included.
      [
        "import { appendFileSync } from 'node:fs'",
        "import { createInterface } from 'node:readline'",
        'const log = process.argv[2]',
        "appendFileSync(log, 'start\\n')",
        'const send = (value) => process.stdout.write(`${JSON.stringify(value)}\\n`)',
        'for await (const line of createInterface({ input: process.stdin })) {',
        "  if (line.trim() === '') continue",
        '  const request = JSON.parse(line)',
        '  appendFileSync(log, `${request.type}\\n`)',
        "  if (request.type === 'capabilities') send({ protocol: 'timegrounded.agent.v1', name: 'logging-agent', timestamped_history: false })",
        "  else send({ answer: 'No.' })",
        '}',
        '',
      ].join('\n'),
      // biome-ignore-end lint/suspicious/noTemplateCurlyInString: the agent's JavaScript ends here.
    )
    const badDate = join(dir, 'bad-date-none.json')
    const items = JSON.parse(readFileSync(SHIPPED, 'utf8'))
    items[9].question_date = '2024/08/32 (Fri) 10:00'
    writeFileSync(badDate, JSON.stringify(items))
    const expected = 'question "tg-prospective-02": question_date "2024/08/32 (Fri) 10:00" is not a readable date (no such calendar day)'

    test('the same agent is started and asked on a readable dataset (so the log below can tell)', () => {
      const log = join(dir, 'agent-good.log')
      const run = timegrounded(['probe', '--mode', 'none', '--', process.execPath, loggingAgent, log])
      expect(run.stderr).not.toContain('not a readable date')
      expect(
        readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line === 'ask'),
      ).toHaveLength(12)
    })

    test('an unreadable question_date: exit 2, the agent never started', () => {
      const log = join(dir, 'agent-bad.log')
      const run = timegrounded(['probe', '--mode', 'none', '--dataset', badDate, '--', process.execPath, loggingAgent, log])
      expect(run.status).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr).toContain(expected)
      expect(existsSync(log)).toBe(false)
    })

    test('--dry-run --mode none fails on it the same way', () => {
      const run = timegrounded(['probe', '--dry-run', '--mode', 'none', '--dataset', badDate])
      expect(run.status).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr).toContain(expected)
    })
  })

  test('an unknown built-in agent and --judge llm without an endpoint are usage errors', () => {
    expect(timegrounded(['probe', '--agent', 'builtin:nope']).status).toBe(2)
    const llm = timegrounded(['probe', '--judge', 'llm'])
    expect(llm.status).toBe(2)
    expect(llm.stderr).toContain('`--judge llm` needs `--judge-base-url URL`')
  })
})

describe('probe: a single mode says a dozen questions is a probe, in text and JSON', () => {
  test('text and --json both carry the caveat', () => {
    const text = timegrounded(['probe', '--mode', 'timestamps-only'])
    expect(text.status).toBe(0)
    expect(text.stdout).toContain('Twelve questions is a probe, not a ranking')
    const json = timegrounded(['probe', '--mode', 'timestamps-only', '--json'])
    expect(json.status).toBe(0)
    expect((JSON.parse(json.stdout) as { caveat: string }).caveat).toMatch(/^Twelve questions is a probe, not a ranking/)
  })

  test('compare --json explains the delta', () => {
    const json = timegrounded(['probe', '--json'])
    expect((JSON.parse(json.stdout) as { delta_meaning: string }).delta_meaning).toMatch(/probe accuracy − control accuracy.*percentage points/)
  })
})
