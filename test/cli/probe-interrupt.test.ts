// Ctrl-C during `timegrounded probe` with a command agent that is stuck (deaf even to the
// end of stdin): the CLI says it was interrupted, exits 1, and no agent process survives it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { isRunning, loggedPids, startGroup, waitFor } from '../fixtures/processes.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const AGENT = fileURLToPath(new URL('../time-grounded/fixtures/agent.mjs', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'tg-probe-int-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

test('Ctrl-C while a command agent is stuck: exit 1, a line saying so, and no agent process left', async () => {
  const log = join(scratch, 'agent.log')
  const run = startGroup([process.execPath, CLI, 'probe', '--timeout-ms', '60000', '--', process.execPath, AGENT], {
    cwd: scratch,
    env: { ...process.env, TG_AGENT_LOG: log, TG_AGENT_HANG_ON: 'tg-asof-02', NO_COLOR: '1' },
  })
  await waitFor(() => loggedPids(log, 'stuck').length > 0, 20_000, 'the agent to get stuck')
  run.signal('SIGINT') // the CLI's group; the agent runs in a group of its own, out of the terminal's reach
  expect(await run.exit(10_000)).toBe(1)
  expect(run.output()).toContain('timegrounded probe: interrupted before the last question; no result was written')
  const started = loggedPids(log, 'start')
  expect(started).toHaveLength(1)
  await waitFor(() => started.every((pid) => !isRunning(pid)), 5_000, `agent process ${started.join(', ')} to end`)
})
