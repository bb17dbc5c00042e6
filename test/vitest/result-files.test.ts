// One writer for the result files: the same store run through real Vitest (the
// basic fixture project) and through the built CLI writes the same bytes to
// predictions.jsonl and report.json, measured times aside.
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { assertBuilt, FIXTURES, REPO, runVitest, scratchDir } from './run-vitest.js'

const PROJECT = join(FIXTURES, 'basic')
const CLI = join(REPO, 'dist/cli/main.js')

/** The text with every measured time replaced: latencies and update lags in rows, their percentiles and means in reports. */
function withoutTimes(text: string): string {
  return text.replace(/("(?:latency_ms|update_lag_ms|p50|p95|observed_mean|observed_p95)": )(-?[0-9.e+-]+)/g, '$1<ms>')
}

function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' } })
}

test('Vitest and `timegrounded run` write the same predictions.jsonl and report.json for the same store; `score` reproduces the Vitest report byte for byte', async () => {
  assertBuilt()
  const scratch = scratchDir('result-files')
  try {
    await compareResultFiles(scratch)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
})

async function compareResultFiles(scratch: string): Promise<void> {
  const fromVitest = join(scratch, 'vitest')
  const vitest = await runVitest(['run', '--root', PROJECT], {
    cwd: PROJECT,
    env: {
      TG_INCLUDE: 'probes/latest-process.probes.ts',
      TG_OUTPUT: fromVitest,
      TG_BASELINE: join(scratch, 'baseline.json'),
      TG_CACHE_DIR: join(scratch, 'cache'),
    },
  })
  expect(vitest.output).toContain('60 of 60 probes ran')

  const fromCli = join(scratch, 'cli')
  expect(cli('run', '--split', 'smoke', '--output', fromCli, '--', process.execPath, CLI, 'reference', 'latest').status).toBe(0)

  for (const name of ['predictions.jsonl', 'report.json']) {
    const vitestText = readFileSync(join(fromVitest, name), 'utf8')
    const cliText = readFileSync(join(fromCli, name), 'utf8')
    expect(withoutTimes(vitestText), name).toBe(withoutTimes(cliText))
    // The mask hides numbers only: both files hold the measured fields in the same places.
    expect(vitestText.match(/"latency_ms": /g)?.length, name).toBe(cliText.match(/"latency_ms": /g)?.length)
  }

  const rescored = join(scratch, 'rescored')
  expect(cli('score', join(fromVitest, 'predictions.jsonl'), '--output', rescored).status).toBe(0)
  expect(readFileSync(join(rescored, 'report.json'), 'utf8')).toBe(readFileSync(join(fromVitest, 'report.json'), 'utf8'))
}
