// `jest --watchAll` end to end, in a pseudo-terminal (Jest reads watch keys
// only from a terminal): a correct store passes; rewriting the store's bug
// switch re-runs the tests and the reporter names the metric that got worse
// against the previous run; the `b` key re-runs in update mode and writes the
// baseline; writing the result files and the baseline starts no further run.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { cleanEnv, installedProject, JEST_30_CJS, JEST_TEST_TIMEOUT, STALE_WRONG } from './run-jest.js'
import { findTerminal, startInTerminal, type TerminalSession } from '../support/terminal.js'

// The CommonJS fixture's package list, so this file shares test/jest/cjs.test.ts's install.
const project = installedProject('cjs', JEST_30_CJS)
const terminal = findTerminal()
let session: TerminalSession | undefined

afterAll(async () => {
  await session?.stop()
})

/** Occurrences of `needle` in `text`. */
function count(text: string, needle: string): number {
  return text.split(needle).length - 1
}

test(
  'watch mode: a change to the store re-runs and is compared with the previous run; `b` writes the baseline; the written files start no new run',
  async (context) => {
    if (terminal.kind === 'absent') {
      context.skip(terminal.reason)
      return
    }
    const dir = project.dir()
    const started = startInTerminal(terminal, [process.execPath, 'node_modules/jest/bin/jest.js', '--watchAll', 'whole'], { cwd: dir, env: cleanEnv() })
    session = started
    // Each run ends with Jest's watch usage line, printed once the reporters are done and keys are read again.
    const END = 'Watch Usage'

    let at = await started.after('probes ran:', 0, 90_000)
    at = await started.after(END, at, 30_000)
    const first = started.text().slice(0, at)
    expect(first).toContain('timegrounded [tivarq] 60 of 60 probes ran: 60 passed, 0 failed')
    expect(first).toContain('timegrounded [tivarq] gate passed (thresholds; no baseline)')

    // The store now keeps the first value it was told (its `stale` bug): replaced values leak.
    writeFileSync(join(dir, 'src/bug.ts'), "// Rewritten by the watch test.\nimport type { Bug } from './store'\n\nexport const BUG: Bug = 'stale'\n")
    const changedAt = at
    at = await started.after('probes ran:', changedAt, 60_000)
    at = await started.after(END, at, 30_000)
    const second = started.text().slice(changedAt, at)
    expect(second).toContain('timegrounded [tivarq] 60 of 60 probes ran: 48 passed, 12 failed')
    expect(second).toContain('changed since previous run: staleValueLeakageRate rose from 0 of 15 to 8 of 15 (0 → 0.533333), worse')
    expect(second).toMatch(/timegrounded \[tivarq\] gate violation: staleValueLeakageRate is 8 of 15/)

    const pressedAt = at
    started.type('b')
    at = await started.after('probes ran:', pressedAt, 60_000)
    at = await started.after(END, at, 30_000)
    const third = started.text().slice(pressedAt, at)
    expect(third).toContain('timegrounded [tivarq] 60 of 60 probes ran: 48 passed, 0 failed, 12 known failures')
    expect(third).toContain('timegrounded [tivarq] baseline written to timegrounded.baseline.json: 60 probes, 12 recorded as known failures')
    // Every test passed (known failures), but the leakage threshold broke: the screen's last word of ours is the run's failure.
    expect(third).toContain('Tests:       60 passed, 60 total')
    const ours = third.split('\n').filter((line) => line.startsWith('timegrounded'))
    expect(ours.at(-2)).toMatch(/^timegrounded \[tivarq\] gate failed \(thresholds; the baseline just written\): 1 violation$/)
    expect(ours.at(-1)).toBe('timegrounded: FAIL: the gate failed this run (tivarq), whatever the test counts above say')
    const probes = JSON.parse(readFileSync(join(dir, 'timegrounded.baseline.json'), 'utf8')).suites.tivarq.probes as Record<string, string>
    expect(Object.keys(probes)).toHaveLength(60)
    expect(
      Object.keys(probes)
        .filter((probe) => probes[probe] === 'wrong')
        .sort(),
    ).toEqual(STALE_WRONG)

    // .timegrounded/ and the baseline were just written: watch mode must ignore them, not start another run.
    // (Without the ignore patterns a new run starts right after each one and prints its progress at once.)
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    const since = started.text().slice(at)
    expect(since).not.toContain('Test Suites:')
    expect(since).not.toContain('RUNS')
    expect(count(started.text(), 'probes ran:')).toBe(3)

    started.type('q')
    const code = await Promise.race([
      started.exited,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`Jest did not exit within 10 s of \`q\`:\n${started.text().slice(-2000)}`)), 10_000).unref(),
      ),
    ])
    expect(code).toBe(0)
  },
  JEST_TEST_TIMEOUT,
)
