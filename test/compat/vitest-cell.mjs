// One cell of the compatibility matrix for the Vitest plugin:
//
//   node test/compat/vitest-cell.mjs --tarball <timegrounded.tgz> --vitest <version> --work <empty dir>
//
// run with the node binary of the cell. It installs a fresh project from the
// packed tarball and vitest@<version> (npm brings Vite, Vitest's peer), then
// runs real Vitest on it, one scenario after another, each printing
// `ok <scenario>` or `FAIL <scenario>: <why>`; exit 0 only when all passed.
// Plain Node ESM, no dependency on the repository's node_modules.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { storeModule } from './cell-store.mjs'
import { cellArguments, check, cleanEnvironment, expectRun, installProject, runNode, runScenarios } from './cell-kit.mjs'

const { tarball, version, work } = cellArguments('vitest')
const project = join(work, 'project')
const VITEST = join(project, 'node_modules', 'vitest', 'vitest.mjs')
const THRESHOLD = JSON.stringify({ staleValueLeakageRate: { max: 0.05 } })
const VIOLATION = 'timegrounded [tivarq] gate violation: staleValueLeakageRate is 8 of 15 (0.533333), above the threshold (max 0.05)'
const NO_GATE = 'timegrounded [tivarq] the gate does not run: no timegrounded reporter in this Vitest run'
const GATE_PASSED = /timegrounded \[tivarq\] gate passed/

const FILES = {
  'store.js': storeModule('esm'),
  // The watch scenario rewrites this line under a running Vitest; every other scenario sets TG_BUG.
  'bug.js': "export const BUG = 'none'\n",
  'vitest.config.js': `import { defineConfig } from 'vitest/config'
import { timegrounded } from 'timegrounded/vitest'

const env = process.env
export default defineConfig({
  plugins: [timegrounded({ baseline: env.TG_BASELINE ?? false, outputDir: env.TG_OUTPUT, thresholds: env.TG_THRESHOLDS ? JSON.parse(env.TG_THRESHOLDS) : undefined })],
  test: { include: [env.TG_INCLUDE ?? 'probes/whole.probes.js'] },
})
`,
  // No plugin: nothing gates the run.
  'vitest.bare.config.js': `import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { include: ['probes/whole.probes.js'] } })
`,
  'vitest.projects.config.js': `import { defineConfig } from 'vitest/config'
import { timegrounded } from 'timegrounded/vitest'

export default defineConfig({
  plugins: [timegrounded({ baseline: false, outputDir: process.env.TG_OUTPUT })],
  test: { projects: [{ extends: true, test: { name: 'memory', include: ['probes/whole.probes.js'] } }] },
})
`,
  // Records, per test, when Vitest made it ready and when it ended, and the concurrency Vitest gave it and its episode.
  'order-reporter.js': `import { writeFileSync } from 'node:fs'

export default class OrderReporter {
  events = []
  onTestCaseReady(test) {
    this.events.push({ event: 'ready', episode: test.parent.name, test: test.name })
  }
  onTestCaseResult(test) {
    this.events.push({ event: 'end', episode: test.parent.name, test: test.name, concurrent: test.options.concurrent === true, episodeConcurrent: test.parent.options.concurrent === true })
  }
  onTestRunEnd(modules) {
    const declared = modules.flatMap((module) => [...module.children.allTests()].map((test) => ({ episode: test.parent.name, test: test.name })))
    writeFileSync(process.env.TG_ORDER, JSON.stringify({ events: this.events, declared }))
  }
}
`,
  'vitest.order.config.js': `import { defineConfig } from 'vitest/config'
import { timegrounded } from 'timegrounded/vitest'

export default defineConfig({
  plugins: [timegrounded({ baseline: false, outputDir: process.env.TG_OUTPUT })],
  test: { include: ['probes/whole.probes.js'], reporters: ['default', './order-reporter.js'] },
})
`,
  'probes/whole.probes.js': suiteFile(''),
  'probes/part1.probes.js': suiteFile(', partition: { index: 1, count: 3 }'),
  'probes/part2.probes.js': suiteFile(', partition: { index: 2, count: 3 }'),
  'probes/part3.probes.js': suiteFile(', partition: { index: 3, count: 3 }'),
  'probes/properties.probes.js': `import { timegroundedProperties } from 'timegrounded/vitest'
import { createStore } from '../store.js'

timegroundedProperties(() => createStore(process.env.TG_BUG ?? 'none'), { runs: 40 })
`,
}

function suiteFile(more) {
  return `import { timegroundedSuite } from 'timegrounded/vitest'
import { createStore } from '../store.js'
import { BUG } from '../bug.js'

timegroundedSuite(() => createStore(process.env.TG_BUG ?? BUG), { split: 'smoke'${more} })
`
}

function writeProject() {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(project, path, '..'), { recursive: true })
    writeFileSync(join(project, path), text)
  }
}

/** `vitest run ...args` in the project; `env` adds TG_* variables (and GitHub's). */
function vitest(args, env = {}) {
  return runNode([VITEST, 'run', ...args], { cwd: project, env, timeoutMs: 120_000 })
}

const out = (name) => join(work, 'out', name)

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'))
}

/** report.json without what measures time (it differs between any two runs). */
function withoutTimings(path) {
  return JSON.stringify(readJson(path), (key, value) => (key === 'query_latency_ms' || key === 'update_lag_ms' ? undefined : value))
}

/** Every line of the output that starts with `timegrounded [`: the verdict of a run, in order. */
function verdictLines(output) {
  return output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('timegrounded [') && !line.includes(' in /') && !line.includes('written to'))
}

async function installed() {
  mkdirSync(project, { recursive: true })
  await installProject(project, tarball, [`vitest@${version}`], 'module')
  writeProject()
  const found = readJson(join(project, 'node_modules', 'vitest', 'package.json')).version
  check(found === version, `vitest ${found} installed, ${version} asked for`)
}

async function passingStore() {
  const run = await vitest([], { TG_OUTPUT: out('pass'), GITHUB_STEP_SUMMARY: join(work, 'summary.md') })
  expectRun(run, {
    code: 0,
    contains: ['Tests  60 passed (60)', 'timegrounded [tivarq] 60 of 60 probes ran: 60 passed, 0 failed', GATE_PASSED],
    quiet: true,
  })
}

function reportPageAndSummary() {
  const page = join(out('pass'), 'report.html')
  check(existsSync(page), `${page} was not written`)
  check(readFileSync(page, 'utf8').includes('<html'), `${page} is not an HTML page`)
  check(readJson(join(out('pass'), 'report.json')).complete === true, 'report.json does not say complete: true')
  const summary = join(work, 'summary.md')
  check(existsSync(summary), `the job summary ($GITHUB_STEP_SUMMARY = ${summary}) was not written`)
  check(/gate passed/.test(readFileSync(summary, 'utf8')), `the job summary ${summary} does not say the gate passed`)
}

/** Each episode a concurrent group, its probes run one after another in the order declared. */
async function probeOrder() {
  const file = join(work, 'order.json')
  const run = await vitest(['--config', 'vitest.order.config.js'], { TG_OUTPUT: out('order'), TG_ORDER: file })
  expectRun(run, { code: 0, contains: [GATE_PASSED] })
  const { events, declared } = readJson(file)
  const ends = events.filter((event) => event.event === 'end')
  check(ends.length === 60, `${ends.length} tests ended, expected 60`)
  const sequentialEpisode = ends.find((event) => !event.episodeConcurrent)
  check(sequentialEpisode === undefined, `episode ${sequentialEpisode?.episode} is not a concurrent group`)
  const concurrentProbe = ends.find((event) => event.concurrent)
  check(concurrentProbe === undefined, `probe test ${concurrentProbe?.test} runs concurrently with the other probes of its episode`)
  for (const episode of new Set(declared.map((test) => test.episode))) {
    const order = declared.filter((test) => test.episode === episode).flatMap((test) => [`ready ${test.test}`, `end ${test.test}`])
    const seen = events.filter((event) => event.episode === episode).map((event) => `${event.event} ${event.test}`)
    check(JSON.stringify(seen) === JSON.stringify(order), `the probes of episode ${episode} did not run one after another in order:\n${seen.join('\n')}`)
  }
}

async function leakingStore() {
  const run = await vitest([], { TG_BUG: 'stale', TG_THRESHOLDS: THRESHOLD, TG_OUTPUT: out('leak') })
  expectRun(run, { code: 1, contains: ['60 of 60 probes ran: 48 passed, 12 failed', 'stale value leaked', VIOLATION], lacks: [GATE_PASSED] })
}

async function noReporterFailsClosed() {
  // With the gate, the leaking store's baseline makes its wrong answers known failures and the run passes...
  const baseline = join(work, 'known.baseline.json')
  const recorded = await vitest(['-u'], { TG_BUG: 'stale', TG_BASELINE: baseline, TG_OUTPUT: out('known') })
  expectRun(recorded, { code: 0, contains: ['baseline written to', '48 passed, 0 failed, 12 known failures', GATE_PASSED] })
  // ...without it, nothing may pass by leniency: the same store fails, and the file says what is missing.
  const bare = await vitest(['--config', 'vitest.bare.config.js'], { TG_BUG: 'stale', TG_BASELINE: baseline })
  expectRun(bare, { code: 1, contains: [NO_GATE, 'Tests  12 failed | 48 passed (60)'], lacks: [GATE_PASSED] })
}

async function updateKeepsThreshold() {
  const baseline = join(work, 'threshold.baseline.json')
  const run = await vitest(['-u'], { TG_BUG: 'stale', TG_THRESHOLDS: THRESHOLD, TG_BASELINE: baseline, TG_OUTPUT: out('update') })
  expectRun(run, { code: 1, contains: [`baseline written to ${baseline}: 60 probes, 12 recorded as known failures`, VIOLATION], lacks: [GATE_PASSED] })
  check(Object.keys(readJson(baseline).suites.tivarq.probes).length === 60, `${baseline} does not hold the 60 probes`)
}

async function editedBaselineRefused() {
  const baseline = join(work, 'edited.baseline.json')
  const recorded = await vitest(['-u'], { TG_BUG: 'stale', TG_BASELINE: baseline, TG_OUTPUT: out('edited') })
  expectRun(recorded, { code: 0, contains: ['baseline written to'] })
  // A hand-made improvement: the stored leakage rate says no value leaked, which the recorded answers contradict.
  const edited = readJson(baseline)
  edited.suites.tivarq.metrics.staleValueLeakageRate.value = 0
  writeFileSync(baseline, `${JSON.stringify(edited, null, 2)}\n`)
  const run = await vitest([], { TG_BUG: 'stale', TG_BASELINE: baseline, TG_OUTPUT: out('edited') })
  expectRun(run, { code: 1, contains: ['baseline refused', 'an edited one is never used'], lacks: [GATE_PASSED] })
}

async function projects() {
  const run = await vitest(['--config', 'vitest.projects.config.js'], { TG_OUTPUT: out('projects') })
  expectRun(run, { code: 0, contains: ['|memory|', 'timegrounded [tivarq] 60 of 60 probes ran: 60 passed', GATE_PASSED], lacks: [NO_GATE] })
}

async function shardsAndMergeReports() {
  const variables = { TG_BUG: 'stale', TG_THRESHOLDS: THRESHOLD, TG_INCLUDE: 'probes/part*.probes.js', GITHUB_SHA: 'c0ffee0000000000000000000000000000000000' }
  const whole = await vitest([], { ...variables, TG_OUTPUT: out('unsharded') })
  expectRun(whole, { code: 1, contains: [VIOLATION] })
  const blobs = join(work, 'blobs')
  for (const index of [1, 2]) {
    const shard = await vitest([`--shard=${index}/2`, '--reporter=blob', `--outputFile=${join(blobs, `blob-${index}.json`)}`], {
      ...variables,
      TG_OUTPUT: out('sharded'),
    })
    expectRun(shard, { lacks: [GATE_PASSED, 'gate violation'] })
    check(existsSync(join(blobs, `blob-${index}.json`)), `shard ${index}/2 wrote no blob`)
  }
  rmSync(out('sharded'), { recursive: true, force: true })
  const merged = await runNode([VITEST, `--merge-reports=${blobs}`], { cwd: project, env: { ...variables, TG_OUTPUT: out('sharded') } })
  expectRun(merged, { code: 1, contains: [VIOLATION] })
  const wholeVerdict = verdictLines(whole.output).join('\n')
  check(
    verdictLines(merged.output).join('\n') === wholeVerdict,
    `the merged verdict differs from the unsharded one:\n${verdictLines(merged.output).join('\n')}\nvs\n${wholeVerdict}`,
  )
  check(
    withoutTimings(join(out('sharded'), 'report.json')) === withoutTimings(join(out('unsharded'), 'report.json')),
    'the merged report.json differs from the unsharded one',
  )
  rmSync(join(blobs, 'blob-2.json'))
  const missing = await runNode([VITEST, `--merge-reports=${blobs}`], { cwd: project, env: { ...variables, TG_OUTPUT: out('missing') } })
  expectRun(missing, { code: 1, contains: ['timegrounded merge: incomplete shard set for --shard=?/2: missing 2 (given 1)'], lacks: [GATE_PASSED, VIOLATION] })
}

async function filterNotGreen() {
  // Only probes this store answers right: every selected test passes, and still no gate passes a chosen part of the suite.
  const passing = await vitest(['-t', 'expiration'], { TG_BUG: 'stale', TG_THRESHOLDS: THRESHOLD, TG_OUTPUT: out('filter') })
  expectRun(passing, {
    contains: ['5 of 60 probes ran: 5 passed, 0 failed', 'partial run (5 of 60 probes): metrics are not gated', 'is never a gate pass'],
    lacks: [GATE_PASSED],
  })
  const leaking = await vitest(['-t', 'replacement'], { TG_BUG: 'stale', TG_THRESHOLDS: THRESHOLD, TG_OUTPUT: out('filter') })
  expectRun(leaking, { code: 1, contains: ['stale value leaked', 'metrics are not gated'], lacks: [GATE_PASSED] })
}

async function bailNotGreen() {
  const run = await vitest(['--bail=1'], { TG_BUG: 'stale', TG_THRESHOLDS: THRESHOLD, TG_OUTPUT: out('bail') })
  expectRun(run, { code: 1, contains: ['run cancelled before the end (`--bail`, or stopped)', 'not gated'], lacks: [GATE_PASSED] })
}

async function properties() {
  const right = await vitest([], { TG_INCLUDE: 'probes/properties.probes.js' })
  expectRun(right, { code: 0, contains: [/seed \d+: 40 cases/, 'Tests  1 passed (1)'] })
  const leaking = await vitest([], { TG_INCLUDE: 'probes/properties.probes.js', TG_BUG: 'stale' })
  expectRun(leaking, { code: 1, contains: ['PropertyFailure', 'Tests  1 failed (1)'] })
}

/** `vitest --watch` on the leaking store, then the store fixed on disk: the re-run says which metrics moved. Bounded, and killed after. */
async function watchDiff() {
  writeFileSync(join(project, 'bug.js'), "export const BUG = 'stale'\n")
  const child = spawn(process.execPath, [VITEST, '--watch'], {
    cwd: project,
    env: cleanEnvironment({ TG_OUTPUT: out('watch') }),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const waitFor = async (text, from) => {
    const deadline = Date.now() + 45_000
    while (Date.now() < deadline) {
      const at = output.indexOf(text, from)
      if (at >= 0) return at + text.length
      if (child.exitCode !== null) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`watch mode never printed ${JSON.stringify(text)}; the end of its output:\n${output.slice(-3000)}`)
  }
  try {
    const at = await waitFor('60 of 60 probes ran: 48 passed, 12 failed', 0)
    writeFileSync(join(project, 'bug.js'), "export const BUG = 'none'\n")
    const rerun = await waitFor('60 of 60 probes ran: 60 passed, 0 failed', at)
    await waitFor('changed since previous run: staleValueLeakageRate fell from 8 of 15 to 0 of 15 (0.533333 → 0), better', rerun)
  } finally {
    child.kill('SIGKILL')
    writeFileSync(join(project, 'bug.js'), "export const BUG = 'none'\n")
  }
}

/** Vitest 5 on a Node its engines exclude (it does not check them itself): the plugin refuses the pair in one line. */
async function refusedOnThisNode() {
  const run = await vitest([], { TG_OUTPUT: out('refused') })
  expectRun(run, {
    code: 1,
    contains: [
      `timegrounded: the installed Vitest ${version} (`,
      `needs Node ^22.12.0 || ^24.0.0 || >=26.0.0; this is Node ${process.versions.node}. Run it on a Node in that range, or install Vitest 4`,
    ],
    lacks: ['TypeError', 'Map.groupBy', 'Test Files'],
  })
  check(!existsSync(out('refused')), 'the refused run wrote results')
}

const vitestMajor = Number(version.split('.')[0])
const nodeTooOld = vitestMajor >= 5 && Number(process.versions.node.split('.')[0]) < 22

await runScenarios([
  [`install timegrounded + vitest@${version} on node ${process.version}`, installed],
  ...(nodeTooOld
    ? [[`vitest ${version} on node ${process.version}: refused in one line naming both versions and the fix`, refusedOnThisNode]]
    : [
        ['passing store: exit 0, gate passed, no error, warning or deprecation line on stderr', passingStore],
        ['report.html and the job summary written', reportPageAndSummary],
        ["an episode's probes run in order, episodes as concurrent groups", probeOrder],
        ['leaking store: exit 1, the gate line says why', leakingStore],
        ['no timegrounded reporter: fails closed', noReporterFailsClosed],
        ['-u writes the baseline; a violated threshold still fails', updateKeepsThreshold],
        ['an edited baseline is refused', editedBaselineRefused],
        ['test.projects with extends: true', projects],
        ['--shard 1/2 + 2/2, blob reports, --merge-reports equals the unsharded run; a missing shard fails', shardsAndMergeReports],
        ['-t filter does not turn the run green', filterNotGreen],
        ['--bail does not turn the run green', bailNotGreen],
        ['timegroundedProperties', properties],
        ['watch mode: per-run diff after a store edit', watchDiff],
      ]),
])
