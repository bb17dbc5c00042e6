// The HTML report of the 900-probe test split: renderHtmlReport (the page as
// one string) and writeHtmlReport (the page written to a file, as the CLI and
// the test-run reporters write it) timed after a warm-up (medians), and the page's size, for builtin:latest (a typical run)
// and for a store whose every answer is wrong (all 900 probes failing, the
// largest page the split makes). Target: under 1.5 MB.
import { referenceStore } from '../dist/adapters/reference/index.js'
import { openPool } from '../dist/harness/pool.js'
import { runSplit } from '../dist/harness/runner.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pageData, renderHtmlReport, writeHtmlReport } from '../dist/report/html/model/build.js'
import { loadSplit } from '../dist/tivarq/dataset.js'
import { scoreRows } from '../dist/tivarq/score.js'
import { HARNESS_VERSION } from '../dist/version.js'
import { median } from './samples.js'

const WARMUP = 3
const RUNS = 15
const LIMIT_BYTES = 1.5 * 1024 * 1024
const SEED = 20261001

const split = await loadSplit(undefined, 'test')
const scratch = mkdtempSync(join(tmpdir(), 'tg-bench-html-'))

/** A store that answers every probe (clock and history declared) with a value nobody stated. */
function wrongEverywhere() {
  return {
    capabilities: { clock: true, history: true },
    reset() {},
    ingest() {},
    advanceClock() {},
    query: () => ({ state: 'known', value: 'a value nobody stated', rawAnswer: 'I believe it is a value nobody stated. '.repeat(10) }),
  }
}

async function input(source, name) {
  const pool = await openPool(source, { track: 'structured' })
  const rows = await runSplit({ episodes: split.episodes, probes: split.probes, pool, options: { track: 'structured' } })
  await pool.close()
  const identity = {
    subject: { label: 'store', value: name },
    data: { name: 'TIVARQ v1', revision: `sha256:${split.manifestSha256}`, split: 'test', track: 'structured' },
  }
  return {
    harnessVersion: HARNESS_VERSION,
    tivarq: { identity, report: scoreRows(rows, { seed: SEED }), rows, episodes: split.episodes, probes: split.probes },
  }
}

for (const [name, source] of [
  ['builtin:latest', referenceStore('latest')],
  ['every answer wrong', () => wrongEverywhere()],
]) {
  const page = await input(source, name)
  let html = ''
  for (let i = 0; i < WARMUP; i++) html = renderHtmlReport(page)
  const times = []
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint()
    html = renderHtmlReport(page)
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  const writes = []
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint()
    writeHtmlReport(join(scratch, 'report.html'), page)
    writes.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  const bytes = Buffer.byteLength(html)
  const failing = pageData(page).tivarq.failing.length
  process.stdout.write(
    `report.html, test split, ${name} (${failing} of 900 probes failing): ${(bytes / 1024).toFixed(0)} KiB (limit 1.5 MB: ${bytes < LIMIT_BYTES ? 'met' : 'MISSED'}); ` +
      `renderHtmlReport median ${median(times).toFixed(1)} ms, writeHtmlReport ${median(writes).toFixed(1)} ms, over ${RUNS} runs\n`,
  )
}
rmSync(scratch, { recursive: true, force: true })
