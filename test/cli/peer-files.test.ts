/**
 * Issue 25: the probe on files we did not write, through the built CLI
 * (dist/cli/main.js) as real subprocesses. The files are our own, shaped like
 * a peer's corpus (test/time-grounded/fixtures/peer-*.json): free-text answers,
 * no or some machine_gold, a session after its question, a question naming a
 * month. Verdicts need answers; a judge that cannot judge says so; `corpus
 * --check` reports every rule per entry.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startChatServer, type ChatServer } from '../support/chat-server.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const FIXTURES = fileURLToPath(new URL('../time-grounded/fixtures/', import.meta.url))
const AGENT = join(FIXTURES, 'agent.mjs')
const FREE_TEXT = join(FIXTURES, 'peer-free-text.json')
const MIXED = join(FIXTURES, 'peer-mixed-gold.json')
const BROKEN = join(FIXTURES, 'peer-broken.json')
const SHIPPED = fileURLToPath(new URL('../../fixtures/timegrounded/timegrounded-v1.json', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'tg-peer-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function timegrounded(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** The CLI without blocking this process: a server in it must answer while the CLI runs. */
function timegroundedAsync(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

/** The four entries of the mixed file that carry machine_gold, answered right. */
const RIGHT = { 'pf-asof-01': 'Basalt Climbing', 'pf-current-02': 'No.', 'pf-asof-04': 'Priya', 'pf-current-05': 'No.' }
const answering = (answers: Record<string, string>) => ({ TG_AGENT_ANSWERS: JSON.stringify(answers) })
const pick = (n: number) => Object.fromEntries(Object.entries(RIGHT).slice(0, n))

describe('§1 "honoured" needs answers', () => {
  test('the built-in agents on a file they do not know: all at 0%, the verdict is "cannot tell" with the reason, and the agent says once that it does not know the file', () => {
    const run = timegrounded(['probe', '--dataset', MIXED, '--agent', 'builtin:honest', '--ceiling', '--unjudged', 'skip', '--no-html'])
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain('  control (timestamps-and-text)  0.0% (0/4, 2 unjudged left out)')
    expect(run.stdout).toContain('  ceiling (reference reader)     0.0% (0/4, 2 unjudged left out)')
    expect(run.stdout).toContain(
      '  Cannot tell: no drop, but the reference reader answered none of these questions (0/4; it only knows the bundled corpora), so there is no ceiling to measure the control against.',
    )
    expect(run.stdout).not.toContain('honours the timestamps')
    const note =
      '  Note: agent "honest" does not know question "pf-asof-01" (nor, likely, the rest of this file): it is a scripted reader of the bundled corpora'
    expect(run.stdout.split(note).length - 1).toBe(1)
    const json = JSON.parse(
      timegrounded(['probe', '--dataset', MIXED, '--agent', 'builtin:ingestion-order', '--ceiling', '--unjudged', 'skip', '--json', '--no-html']).stdout,
    )
    expect(json.verdict).toMatchObject({ kind: 'cannot_tell', ceiling: 'reference-reader', floor: 0.75 })
    expect(json.verdict.text).toContain('the reference reader answered none of these questions (0/4; it only knows the bundled corpora)')
    expect(json.notes).toEqual([expect.stringContaining('agent "ingestion-order" does not know question "pf-asof-01"')])
  })

  test('a control at 100% against a ceiling at 0% is "cannot tell", not "within reach of the ceiling’s 0.0%"', () => {
    const run = timegrounded(['probe', '--dataset', MIXED, '--ceiling', '--unjudged', 'skip', '--no-html', '--', process.execPath, AGENT], answering(RIGHT))
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain('  control (timestamps-and-text)  100.0% (4/4, 2 unjudged left out)')
    expect(run.stdout).toContain('Cannot tell: no drop, but the reference reader answered none of these questions (0/4; it only knows the bundled corpora)')
    expect(run.stdout).not.toContain('within reach')
  })

  test('at the control’s floor: 3 of 4 (75%) is honoured, 2 of 4 (50%) is "cannot tell"; text and --json say the same', () => {
    const at = timegrounded(['probe', '--dataset', MIXED, '--unjudged', 'skip', '--no-html', '--', process.execPath, AGENT], answering(pick(3)))
    expect(at.status, at.stderr).toBe(0)
    const honoured =
      'No drop beyond chance, and the control’s 75.0% is within reach of a perfect score (no ceiling ran): the agent honours the timestamps it is given (on these questions).'
    expect(at.stdout).toContain(`  ${honoured}`)
    const atJson = JSON.parse(
      timegrounded(['probe', '--dataset', MIXED, '--unjudged', 'skip', '--json', '--no-html', '--', process.execPath, AGENT], answering(pick(3))).stdout,
    )
    expect(atJson.verdict).toMatchObject({ kind: 'timestamps_honoured', text: honoured })
    const below = timegrounded(['probe', '--dataset', MIXED, '--unjudged', 'skip', '--no-html', '--', process.execPath, AGENT], answering(pick(2)))
    expect(below.stdout).toContain(
      '  Cannot tell: no drop, but the control’s 50.0% is under the 75% the control needs on its own, so the agent fails with or without printed dates',
    )
    const all = timegrounded(['probe', '--dataset', MIXED, '--unjudged', 'skip', '--no-html', '--', process.execPath, AGENT], answering(RIGHT))
    expect(all.stdout).toContain('the control’s 100.0% matches a perfect score (no ceiling ran): the agent honours the timestamps it is given')
  })
})

describe('§2 a judge that cannot judge says so', () => {
  test('by default a file without machine_gold is refused before the agent starts: how many entries, and what to do; exit 2', () => {
    const log = join(dir, 'refused.log')
    const run = timegrounded(['probe', '--dataset', FREE_TEXT, '--no-html', '--', process.execPath, AGENT], { TG_AGENT_LOG: log })
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      'timegrounded probe: 6 of 6 entries of peer-free-text have no machine-checkable gold (`machine_gold`): "pf-asof-01", "pf-current-02", "pf-prospective-03", "pf-asof-04", "pf-current-05" and 1 more. ' +
        'The deterministic judge cannot grade their free-text answers, and would count a right answer worded differently as wrong, so nothing was asked. ' +
        'Judge them with a model (`--judge llm --judge-base-url URL --judge-model NAME`), add `machine_gold` to each entry ({ "kind": "yes_no", "value": false }, or a date, count or entity: see docs/time-grounded-probe.md#the-corpus), ' +
        'or run them and leave them out of every rate (`--unjudged skip`).\n',
    )
    expect(existsSync(log)).toBe(false)
    // Two of six without machine_gold are refused the same way, with the count.
    const mixed = timegrounded(['probe', '--dataset', MIXED, '--agent', 'builtin:honest', '--mode', 'timestamps-only'])
    expect(mixed.status).toBe(2)
    expect(mixed.stderr).toContain(
      '2 of 6 entries of peer-mixed-gold have no machine-checkable gold (`machine_gold`): "pf-prospective-03", "pf-prospective-06".',
    )
  })

  test('--unjudged skip asks them and leaves them out of every rate, the count beside each score; nothing judged is "cannot tell"', () => {
    const run = timegrounded(['probe', '--dataset', FREE_TEXT, '--unjudged', 'skip', '--no-html', '--', process.execPath, AGENT], { TG_AGENT_ANSWER: 'No.' })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain('  control (timestamps-and-text)  n/a (0/0, 6 unjudged left out)')
    expect(run.stdout).toContain('  Cannot tell: no question of this comparison could be judged.')
    const single = timegrounded(
      ['probe', '--dataset', MIXED, '--mode', 'timestamps-only', '--unjudged', 'skip', '--json', '--', process.execPath, AGENT],
      answering(RIGHT),
    )
    const result = JSON.parse(single.stdout)
    expect(result).toMatchObject({ questions: 6, correct: 4, accuracy: 1, unjudged: 2, agent_errors: 0 })
    expect(result.rows.find((row: { question_id: string }) => row.question_id === 'pf-prospective-06')).toMatchObject({
      status: 'unjudged',
      response: "I don't know.",
    })
    // Not errors: the progress line counts none.
    expect(single.stderr).toContain('probe: 6/6 questions (100%), 0 errors')
    expect(timegrounded(['probe', '--unjudged', 'sometimes']).status).toBe(2)
  })

  describe('with --judge llm the same free-text file is judged, and a right "No." counts as right', () => {
    let server: ChatServer
    beforeAll(async () => {
      // A judge that says yes when the answer to grade is one of the right ones for its question.
      server = await startChatServer((request) => {
        const prompt = request.body.messages[0]?.content ?? ''
        const graded = /^Answer to grade: (.*)$/m.exec(prompt)?.[1] ?? ''
        return { content: ['No.', 'Basalt Climbing', 'Priya'].includes(graded) ? 'yes' : 'no' }
      })
    })
    afterAll(() => server.close())

    test('no refusal: 3 right of 6 under both modes', async () => {
      const answers = { 'pf-asof-01': 'Basalt Climbing', 'pf-current-02': 'No.', 'pf-asof-04': 'Priya' }
      const run = await timegroundedAsync(
        [
          'probe',
          '--dataset',
          FREE_TEXT,
          '--judge',
          'llm',
          '--judge-base-url',
          server.baseUrl,
          '--judge-model',
          'judge',
          '--json',
          '--no-html',
          '--',
          process.execPath,
          AGENT,
        ],
        answering(answers),
      )
      expect(run.status, run.stderr).toBe(0)
      const result = JSON.parse(run.stdout)
      expect(result.control).toMatchObject({ questions: 6, correct: 3, unjudged: 0 })
      expect(result.probe).toMatchObject({ questions: 6, correct: 3, unjudged: 0 })
      expect(server.requests.length).toBe(12)
    })
  })
})

describe('§3 timegrounded corpus --check FILE', () => {
  test('a peer-shaped file: each entry with the rules it breaks, each rule with its count, the machine-checkable gold; exit 1', () => {
    const run = timegrounded(['corpus', '--check', FREE_TEXT])
    expect(run.status).toBe(1)
    expect(run.stderr).toBe('')
    const lines = run.stdout.split('\n')
    // The as-of question names its instant ("at the start of March"): not a broken rule for a question.
    expect(lines).toContain('  pf-asof-01         ok')
    expect(lines).toContain(
      '  pf-current-02      session-after-question   haystack_dates[2] "2025/06/02 (Mon) 09:00" is after question_date "2025/05/30 (Fri) 08:00": the session is data from the question\'s future',
    )
    expect(lines).toContain('  pf-prospective-03  message-date             haystack_sessions[1][0] contains a four-digit number (a year): "2027"')
    expect(lines).toContain(
      '  message-date               1  messages: no absolute date: no year, numeric date, month name, day-of-month ordinal or fixed-date holiday',
    )
    expect(lines).toContain(
      '  question-date              0  questions: no year and no numeric date (calendar words may name the instant: "at the start of March")',
    )
    expect(lines).toContain(
      'Machine-checkable gold: 0 of 6 entries carry machine_gold; the deterministic judge cannot grade the other 6 (judge them with `--judge llm`, add machine_gold, or run with `--unjudged skip`).',
    )
    expect(lines).toContain('2 of 7 rules broken, in 2 of 6 entries.')
  })

  test('every other rule, rule by rule: order, gold labels, weekdays in a date and in a speaker’s claim, a year in a question, no such day', () => {
    const run = timegrounded(['corpus', '--check', BROKEN])
    expect(run.status).toBe(1)
    for (const line of [
      '  pb-order-01    session-order            haystack_dates[1] "2025/03/02 (Sun) 09:00" is earlier than haystack_dates[0] "2025/06/20 (Fri) 09:00"',
      '  pb-gold-02     gold-session-unlabelled  gold session "pb-gold-02_s1" (haystack_sessions[0]) has no turn labelled "has_answer": true',
      '  pb-weekday-03  weekday                  haystack_dates[1] "2025/09/02 (Wed) 12:00": the day is a Tue, not a Wed',
      '                 weekday                  haystack_sessions[0][0] says "a week from tomorrow" is a Sunday, but it is a Tuesday',
      '  pb-year-04     question-date            the question contains a four-digit number (a year): "2024"',
      '                 date-format              haystack_dates[1] "2025/02/30 (Sun) 09:00": no such calendar day',
      '5 of 7 rules broken, in 4 of 4 entries.',
    ])
      expect(run.stdout.split('\n')).toContain(line)
    const json = JSON.parse(timegrounded(['corpus', '--check', BROKEN, '--json']).stdout)
    expect(json).toMatchObject({ file: BROKEN, entries: 4, entries_with_machine_gold: 0, ok: false })
    expect(json.rules.map((rule: { rule: string; entries_breaking: number }) => [rule.rule, rule.entries_breaking])).toEqual([
      ['message-date', 0],
      ['question-date', 1],
      ['date-format', 1],
      ['weekday', 1],
      ['session-after-question', 0],
      ['session-order', 1],
      ['gold-session-unlabelled', 1],
    ])
    expect(json.findings).toContainEqual({
      rule: 'session-order',
      question_id: 'pb-order-01',
      entry: 0,
      where: 'haystack_dates[1]',
      message: 'haystack_dates[1] "2025/03/02 (Sun) 09:00" is earlier than haystack_dates[0] "2025/06/20 (Fri) 09:00"',
    })
  })

  test('the bundled corpus and the mixed file keep every rule: exit 0, with the machine-checkable gold counted', () => {
    const shipped = timegrounded(['corpus', '--check', SHIPPED])
    expect(shipped.status, shipped.stdout).toBe(0)
    expect(shipped.stdout).toContain('Machine-checkable gold: 12 of 12 entries carry machine_gold.\nEvery rule holds in every entry.\n')
    const mixed = timegrounded(['corpus', '--check', MIXED])
    expect(mixed.status).toBe(0)
    expect(mixed.stdout).toContain('Machine-checkable gold: 4 of 6 entries carry machine_gold; the deterministic judge cannot grade the other 2')
  })

  test('a file that cannot be read or is not LongMemEval-shaped, --check with --out, and neither: exit 2', () => {
    const missing = timegrounded(['corpus', '--check', join(dir, 'nope.json')])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain('nope.json')
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, JSON.stringify([{ question_id: 'x' }]))
    const invalid = timegrounded(['corpus', '--check', bad])
    expect(invalid.status).toBe(2)
    expect(invalid.stderr).toContain('entry 0 (question_id "x")')
    const both = timegrounded(['corpus', '--check', FREE_TEXT, '--out', join(dir, 'x.json')])
    expect(both.status).toBe(2)
    expect(both.stderr).toBe('timegrounded corpus: `--check FILE` reads a file and writes none, so it takes no `--out`; drop it.\n')
    expect(existsSync(join(dir, 'x.json'))).toBe(false)
    const neither = timegrounded(['corpus'])
    expect(neither.status).toBe(2)
    expect(neither.stderr).toBe('timegrounded corpus: give `--out FILE` to write a corpus, or `--check FILE` to check one.\n')
    expect(readFileSync(FREE_TEXT, 'utf8')).toContain('"question_id": "pf-asof-01"')
  })
})
