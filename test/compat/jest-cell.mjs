// One cell of the compatibility matrix for the Jest reporter:
//
//   node test/compat/jest-cell.mjs --tarball <timegrounded.tgz> --jest <version> --work <empty dir>
//
// run with the node binary of the cell. It installs a fresh CommonJS project
// (plain JavaScript, no transform) from the packed tarball with jest@<version>
// and @jest/globals at the same version, then runs real Jest on it, one
// scenario after another, each printing `ok <scenario>` or
// `FAIL <scenario>: <why>`; exit 0 only when all passed. Plain Node ESM, no
// dependency on the repository's node_modules.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { storeModule } from './cell-store.mjs'
import { cellArguments, check, expectRun, installProject, runNode, runScenarios } from './cell-kit.mjs'

const { tarball, version, work } = cellArguments('jest')
const project = join(work, 'project')
const JEST = join(project, 'node_modules', 'jest', 'bin', 'jest.js')
const THRESHOLD = JSON.stringify({ staleValueLeakageRate: { max: 0.05 } })
const VIOLATION = 'timegrounded [tivarq] gate violation: staleValueLeakageRate is 8 of 15 (0.533333), above the threshold (max 0.05)'
const NO_GATE = 'timegrounded [tivarq] the gate does not run: no timegrounded reporter in this Jest run'
const GATE_PASSED = /timegrounded \[tivarq\] gate passed/

const FILES = {
  'store.js': storeModule('cjs'),
  'jest.config.js': `const { withTimegrounded } = require('timegrounded/jest/config')

const env = process.env
module.exports = withTimegrounded(
  { testEnvironment: 'node', testMatch: ['**/test/*.test.js'] },
  { baseline: env.TG_BASELINE ?? false, outputDir: env.TG_OUTPUT, thresholds: env.TG_THRESHOLDS ? JSON.parse(env.TG_THRESHOLDS) : undefined },
)
`,
  'test/whole.test.js': `const { timegroundedSuite } = require('timegrounded/jest')
const { createStore } = require('../store.js')

timegroundedSuite(() => createStore(process.env.TG_BUG ?? 'none'), { split: 'smoke' })
`,
}

function writeProject() {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(project, path, '..'), { recursive: true })
    writeFileSync(join(project, path), text)
  }
}

/** `jest --ci ...args` in the project; `env` adds TG_* variables. */
function jest(args, env = {}) {
  return runNode([JEST, '--ci', ...args], { cwd: project, env, timeoutMs: 120_000 })
}

const out = (name) => join(work, 'out', name)

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'))
}

async function installed() {
  mkdirSync(project, { recursive: true })
  await installProject(project, tarball, [`jest@${version}`, `@jest/globals@${version}`], 'commonjs')
  writeProject()
  const found = readJson(join(project, 'node_modules', 'jest', 'package.json')).version
  check(found === version, `jest ${found} installed, ${version} asked for`)
}

async function passingStore() {
  const run = await jest([], { TG_OUTPUT: out('pass') })
  expectRun(run, {
    code: 0,
    contains: ['Tests:       60 passed, 60 total', 'timegrounded [tivarq] 60 of 60 probes ran: 60 passed, 0 failed', GATE_PASSED],
    quiet: true,
  })
  check(readJson(join(out('pass'), 'report.json')).complete === true, 'report.json does not say complete: true')
}

async function leakingStore() {
  const run = await jest([], { TG_BUG: 'stale', TG_THRESHOLDS: THRESHOLD, TG_OUTPUT: out('leak') })
  expectRun(run, { code: 1, contains: ['60 of 60 probes ran: 48 passed, 12 failed', 'stale value leaked', VIOLATION], lacks: [GATE_PASSED] })
}

async function defaultReportersFailClosed() {
  // With the reporter, the leaking store's baseline makes its wrong answers known failures and the run passes...
  const baseline = join(work, 'known.baseline.json')
  const recorded = await jest(['-u'], { TG_BUG: 'stale', TG_BASELINE: baseline, TG_OUTPUT: out('known') })
  expectRun(recorded, { code: 0, contains: ['baseline written to', '48 passed, 0 failed, 12 known failures', GATE_PASSED] })
  // ...`--reporters=default` drops it: nothing may pass by leniency, and the file says what is missing.
  const bare = await jest(['--reporters=default'], { TG_BUG: 'stale', TG_BASELINE: baseline })
  expectRun(bare, { code: 1, contains: [NO_GATE, 'Tests:       12 failed, 48 passed, 60 total'], lacks: [GATE_PASSED] })
}

await runScenarios([
  [`install timegrounded + jest@${version} on node ${process.version}`, installed],
  ['passing store: exit 0, gate passed, no error, warning or deprecation line on stderr', passingStore],
  ['leaking store: exit 1, the gate line says why', leakingStore],
  ['--reporters=default (no timegrounded reporter): fails closed', defaultReportersFailClosed],
])
