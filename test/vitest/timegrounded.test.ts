// End to end: the real Vitest CLI on test/fixtures/vitest-projects/time-grounded,
// whose agent is chosen by TG_AGENT; checked by output and exit code. The fixture
// uses the public path (`timeGroundedTests` from timegrounded/vitest, the plugin's reporter).
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fileURLToPath } from 'node:url'
import { assertBuilt, FIXTURES, runVitest, scratchDir } from './run-vitest.js'

const PEER = (name: string) => fileURLToPath(new URL(`../time-grounded/fixtures/${name}`, import.meta.url))

const PROJECT = join(FIXTURES, 'time-grounded')
let scratch: string
beforeAll(() => {
  assertBuilt()
  scratch = scratchDir('vitest-tg')
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const run = (env: Record<string, string>) =>
  runVitest(['run', '--root', PROJECT], { cwd: PROJECT, env: { TG_CACHE_DIR: join(scratch, 'cache'), TG_OUTPUT: join(scratch, 'out'), ...env } })

describe('time-grounded tests under real Vitest', () => {
  test('an agent that honours timestamps: every question passes; the reporter prints both scores, the delta and the caveat', async () => {
    const result = await run({ TG_AGENT: 'honest', TG_CEILING: '1' })
    expect(result.output).toContain('Tests  36 passed (36)')
    expect(result.output).toContain('control (timestamps-and-text)  100.0% (12/12)')
    expect(result.output).toContain('probe   (timestamps-only)      100.0% (12/12)')
    expect(result.output).toContain(
      'delta   (probe − control)      ±0.0 pts, 95% CI [0.0, 0.0] (paired bootstrap over 12 questions, seed 20240101, 1000 resamples)',
    )
    expect(result.output).toContain('ceiling (reference reader)     100.0% (12/12)')
    expect(result.output).toContain(
      '  No drop beyond chance, and the control’s 100.0% matches the ceiling’s 100.0%: the agent honours the timestamps it is given (on these questions).',
    )
    expect(result.output).toContain('Twelve questions is a probe, not a ranking')
    expect(result.code).toBe(0)
  })

  test('an agent that ignores time scores the same in both modes, and the verdict says it cannot tell, not that timestamps are honoured', async () => {
    const result = await run({ TG_AGENT: 'yes-sayer' })
    expect(result.output).toContain('control (timestamps-and-text)  25.0% (3/12)')
    expect(result.output).toContain('probe   (timestamps-only)      25.0% (3/12)')
    expect(result.output).toContain(
      '  Cannot tell: no drop, but the control’s 25.0% is under the 75% the control needs on its own, so the agent fails with or without printed dates; a zero delta only says its score does not depend on them.',
    )
    expect(result.output).not.toContain('honours the timestamps')
  })

  test('an agent that stamps ingestion order: probe questions fail, saying the control got them right', async () => {
    const result = await run({ TG_AGENT: 'ingestion-order' })
    expect(result.code).toBe(1)
    expect(result.output).toContain('Tests  7 failed | 17 passed (24)')
    expect(result.output).toContain('probe   (timestamps-only)      41.7% (5/12)')
    expect(result.output).toMatch(/delta {3}\(probe − control\) {6}-58\.3 pts, 95% CI \[-\d+\.\d, -\d+\.\d\]/)
    expect(result.output).toContain(
      '  A drop under the probe (its 95% interval lies below zero): that share of the temporal score came from dates printed in the prompt, not from stored time.',
    )
    expect(result.output).toContain(
      'probe question tg-current-01 (timestamps-only): answered "Yes.", judged incorrect (read yes, expected no). The control answered it correctly',
    )
  })

  test('an agent that throws, hangs or answers a number, and a judge that hangs: each fails its own question, the rest run, the summary counts them', async () => {
    const result = await run({ TG_AGENT: 'faulty', TG_JUDGE: 'hangs', TG_AGENT_TIMEOUT_MS: '500' })
    expect(result.code).toBe(1)
    expect(result.output).toContain('Tests  4 failed | 20 passed (24)')
    expect(result.output).toContain(
      'control question tg-asof-01 (timestamps-and-text): the agent failed: agent "faulty" answer threw: model crashed on purpose',
    )
    expect(result.output).toContain('control question tg-asof-02 (timestamps-and-text): the agent failed: agent "faulty" (answer) gave no answer within 500 ms')
    expect(result.output).toContain('control question tg-asof-03 (timestamps-and-text): the agent failed: agent "faulty" returned number, expected a string')
    expect(result.output).toContain('(timestamps-and-text): the judge failed: the deterministic judge gave no answer within 500 ms')
    expect(result.output).toContain('control (timestamps-and-text)  66.7% (8/12)')
    expect(result.output).toContain('probe   (timestamps-only)      100.0% (12/12)')
    expect(result.output).toContain('4 question(s) ended in an error and count as incorrect')
  })

  test('issue 25 §1: built-in agents on a file they do not know: "cannot tell", with the reason, and the agent says once that it does not know the file', async () => {
    const result = await run({ TG_AGENT: 'honest', TG_CEILING: '1', TG_DATASET: PEER('peer-mixed-gold.json'), TG_UNJUDGED: 'skip' })
    // 4 judged questions fail in each of three runs; the 2 without machine_gold are skipped in each.
    expect(result.output).toContain('Tests  12 failed | 6 skipped (18)')
    expect(result.output).toContain('control (timestamps-and-text)  0.0% (0/4, 2 unjudged left out)')
    expect(result.output).toContain('ceiling (reference reader)     0.0% (0/4, 2 unjudged left out)')
    expect(result.output).toContain(
      '  Cannot tell: no drop, but the reference reader answered none of these questions (0/4; it only knows the bundled corpora), so there is no ceiling to measure the control against.',
    )
    expect(result.output).not.toContain('honours the timestamps')
    const note = '  Note: agent "honest" does not know question "pf-asof-01" (nor, likely, the rest of this file)'
    expect(result.output.split(note).length - 1).toBe(1)
  })

  test('issue 25 §1: at the control’s floor, 3 of 4 right is honoured and 2 of 4 is "cannot tell", worded as the CLI words it', async () => {
    const answers = { 'pf-asof-01': 'Basalt Climbing', 'pf-current-02': 'No.', 'pf-asof-04': 'Priya' }
    const common = { TG_AGENT: 'scripted-answers', TG_DATASET: PEER('peer-mixed-gold.json'), TG_UNJUDGED: 'skip' }
    const at = await run({ ...common, TG_ANSWERS: JSON.stringify(answers) })
    expect(at.output).toContain('control (timestamps-and-text)  75.0% (3/4, 2 unjudged left out)')
    expect(at.output).toContain(
      '  No drop beyond chance, and the control’s 75.0% is within reach of a perfect score (no ceiling ran): the agent honours the timestamps it is given (on these questions).',
    )
    const { 'pf-asof-04': _dropped, ...two } = answers
    const below = await run({ ...common, TG_ANSWERS: JSON.stringify(two) })
    expect(below.output).toContain(
      '  Cannot tell: no drop, but the control’s 50.0% is under the 75% the control needs on its own, so the agent fails with or without printed dates; a zero delta only says its score does not depend on them.',
    )
  })

  test('issue 25 §2: a file without machine_gold fails the file at collection, before any agent call, saying how many and what to do', async () => {
    const result = await run({ TG_AGENT: 'honest', TG_DATASET: PEER('peer-free-text.json') })
    expect(result.code).toBe(1)
    expect(result.output).toContain('6 of 6 entries of peer-free-text have no machine-checkable gold (`machine_gold`)')
    expect(result.output).toContain('Judge them with a model (`judge: { baseUrl, model }` (the LLM judge))')
    expect(result.output).toContain("or run them and leave them out of every rate (`unjudged: 'skip'`).")
    expect(result.output).not.toContain('control (timestamps-and-text) ')
  })

  test('an agent without the typed channel fails the file at collection, naming mode and agent', async () => {
    const result = await run({ TG_AGENT: 'text-only' })
    expect(result.code).toBe(1)
    expect(result.output).toContain('agent "text-only" does not implement `injectTimestampedHistory(history)`')
    expect(result.output).not.toContain('probe   (timestamps-only) ')
  })
})
