// One example of examples/ as a user installs it today, for the compatibility tier (scripts/compat.js):
//
//   node scripts/compat-example-cell.js --example NAME --tarball T --work DIR [--addon better_sqlite3.node] [--vitest V]
//
// run with the cell's Node (process.execPath; npm and npx run under it too, through PATH). The example's
// files are copied into DIR, timegrounded comes from the tarball, its runner is the newest major (Vitest
// 5.1.2 with Vite, or Jest 30.5.2), and the example's other packages stay at the versions it pins. Then
// its own suite must pass with the gate line, and the same project with a bug put into its store (or a
// worse mapping chosen) must fail through the gate. --vitest installs another Vitest in place of the newest
// (to tell a Vitest 5 failure from one of the example). One line per scenario, `ok <scenario>` or
// `FAIL <scenario>: <why>`; exit 0 only when all pass.
import { spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const repo = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))

/** The newest majors of the runners, as `npm i -D vitest vite` and `npm i -D jest` install them at the time of writing; @types/node of the Node line the cells run (Vitest 5 asks for 22 or 24+). */
export const NEWEST = {
  vitest: '5.1.2',
  vite: repo.devDependencies.vite,
  jest: '30.5.2',
  typesNode: '24.19.4',
  ai: '7.0.173',
  aiOpenAiCompatible: '3.0.92',
}

/**
 * Per example: the packages its fresh project installs beyond timegrounded (`own` keeps the example's
 * package.json and lockfile and overrides only these), the suite's command, the lines a passing run
 * prints, and the change that must make it fail.
 */
export const EXAMPLES = {
  'in-memory': {
    packages: { vitest: NEWEST.vitest, vite: NEWEST.vite },
    command: ['vitest', 'run'],
    passes: [/240 of 240 probes ran: 240 passed, 0 failed/, /gate passed/],
    // Statements replayed in arrival order: a late, back-dated message wins over a newer one.
    bug: {
      file: 'src/store.ts',
      from: '.sort((a, b) => Date.parse(a.assertion.effectiveAt) - Date.parse(b.assertion.effectiveAt) || a.arrival - b.arrival)',
      to: '.sort((a, b) => a.arrival - b.arrival)',
    },
  },
  'sqlite-bitemporal': {
    packages: { vitest: NEWEST.vitest, vite: NEWEST.vite, 'better-sqlite3': repo.devDependencies['better-sqlite3'] },
    command: ['vitest', 'run'],
    passes: [/900 of 900 probes ran: 900 passed, 0 failed/, /gate passed/],
    // A superseded version left open: the oldest value still holds, the stale-value leak the benchmark catches.
    bug: { file: 'src/store.ts', from: 'UPDATE facts SET valid_to = :validFrom', to: 'UPDATE facts SET valid_to = valid_to' },
  },
  'mcp-memory': {
    own: true,
    packages: { vitest: NEWEST.vitest, vite: NEWEST.vite, '@types/node': NEWEST.typesNode },
    command: ['vitest', 'run'],
    passes: [/\[mcp-record\] 900 of 900 probes ran: 765 passed, 0 failed/, /\[mcp-delete\] 900 of 900 probes ran: 750 passed, 0 failed/, /gate passed/],
    // The strict suite switched to the deleting mapping: worse than its committed baseline.
    bug: { file: 'test/record.timegrounded.test.ts', from: "McpMemoryStore.start('record')", to: "McpMemoryStore.start('delete')" },
  },
  'langgraph-store': {
    own: true,
    packages: { vitest: NEWEST.vitest, vite: NEWEST.vite, '@types/node': NEWEST.typesNode },
    command: ['vitest', 'run'],
    passes: [/\[langgraph-event-log\] 900 of 900 probes ran: 900 passed, 0 failed/, /\[langgraph-profile\] 900 of 900 probes ran/, /gate passed/],
    // The event log replayed in arrival order instead of valid time.
    bug: { file: 'src/stores.ts', from: '.sort((a, b) => a.validFrom - b.validFrom || a.arrival - b.arrival)', to: '.sort((a, b) => a.arrival - b.arrival)' },
  },
  // A model-backed memory on the AI SDK's newest major (ai 7, spec v4; it needs Node 22): its committed
  // cassettes, recorded through ai 6, must replay with no network, and a store that misreads the model's
  // answers must fail through the gate (its requests unchanged, so every call is still replayed).
  'llm-memory': {
    packages: { vitest: NEWEST.vitest, vite: NEWEST.vite, ai: NEWEST.ai, '@ai-sdk/openai-compatible': NEWEST.aiOpenAiCompatible },
    env: { TIMEGROUNDED_MODEL_CALLS: 'replay' },
    command: ['vitest', 'run'],
    passes: [/\[llm-memory\] 60 of 60 probes ran: 60 passed, 0 failed/, /\[model-hybrid\] 60 of 60 probes ran: 60 passed, 0 failed/, /gate passed/],
    bug: { file: 'src/memory.ts', from: "state: answer.state as StoreAnswer['state'],", to: "state: 'unknown' as StoreAnswer['state']," },
  },
  'jest-memory': {
    own: true,
    lockfile: false,
    packages: { jest: NEWEST.jest },
    command: ['jest'],
    passes: [/Tests:\s+60 passed, 60 total/, /60 of 60 probes ran: 60 passed, 0 failed/, /gate passed/],
    bug: { file: 'src/store.ts', from: '.sort((a, b) => a.validFrom - b.validFrom || a.heard - b.heard)', to: '.sort((a, b) => a.heard - b.heard)' },
  },
}

/** The user's shell: no npm settings of an outer `npm run`, no outer runner's markers, no CI job summary; this Node first on PATH. */
function userEnv() {
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` }
  for (const key of Object.keys(env)) {
    if ((key.toLowerCase().startsWith('npm_') && key !== 'npm_config_nodedir') || key.startsWith('VITEST') || key.startsWith('JEST')) delete env[key]
  }
  for (const key of ['CI', 'GITHUB_STEP_SUMMARY', 'TIMEGROUNDED_JEST_CONTEXT', 'NODE_OPTIONS', 'NODE_ENV', 'TEST']) delete env[key]
  return env
}

function run(cwd, command, args, env = {}) {
  return spawnSync(command, args, { cwd, env: { ...userEnv(), ...env }, encoding: 'utf8', timeout: 300_000 })
}

function lastLines(result, count = 8) {
  const text = `${result.stdout ?? ''}\n${result.stderr ?? ''}`.trim()
  return `exit ${result.status}${result.error ? ` (${result.error.message})` : ''}: ${text.split('\n').slice(-count).join(' | ')}`
}

/** The example's files in `work/<name>`, its package.json pointing at the tarball and the newest runner. */
function setUp(name, example, tarball, work) {
  const project = join(work, name)
  cpSync(join(ROOT, 'examples', name), project, {
    recursive: true,
    filter: (path) => !/(node_modules|\.timegrounded|dist)$/.test(path) && (example.lockfile !== false || !path.endsWith('package-lock.json')),
  })
  const manifest = example.own
    ? JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))
    : { name, version: '1.0.0', private: true, type: 'module', devDependencies: {} }
  manifest.devDependencies = { ...manifest.devDependencies, ...example.packages, timegrounded: `file:${tarball}` }
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  return project
}

/** better-sqlite3 without its install script (it would fetch a prebuilt binary from GitHub), given the addon compiled for this Node. */
function placeAddon(project, addon) {
  const release = join(project, 'node_modules/better-sqlite3/build/Release')
  rmSync(join(project, 'node_modules/better-sqlite3/build'), { recursive: true, force: true })
  mkdirSync(release, { recursive: true })
  copyFileSync(addon, join(release, 'better_sqlite3.node'))
}

function main() {
  const { values } = parseArgs({
    options: { example: { type: 'string' }, tarball: { type: 'string' }, work: { type: 'string' }, addon: { type: 'string' }, vitest: { type: 'string' } },
  })
  const chosen = EXAMPLES[values.example]
  const example =
    chosen?.packages.vitest !== undefined && values.vitest !== undefined ? { ...chosen, packages: { ...chosen.packages, vitest: values.vitest } } : chosen
  if (example === undefined || values.tarball === undefined || values.work === undefined) {
    console.log(`FAIL arguments: usage: --example ${Object.keys(EXAMPLES).join('|')} --tarball T --work DIR [--addon better_sqlite3.node] [--vitest V]`)
    return 2
  }
  if (example.packages['better-sqlite3'] !== undefined && (values.addon === undefined || !existsSync(values.addon))) {
    console.log(`FAIL install: examples/${values.example} needs --addon, better-sqlite3 compiled for Node ${process.version}`)
    return 1
  }
  const failures = []
  const report = (scenario, why) => {
    console.log(why === null ? `ok ${scenario}` : `FAIL ${scenario}: ${why}`)
    if (why !== null) failures.push(scenario)
  }

  const project = setUp(values.example, example, values.tarball, values.work)
  const installed = run(project, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'])
  report(
    `install (${Object.entries(example.packages)
      .map(([pkg, version]) => `${pkg}@${version}`)
      .join(', ')})`,
    installed.status === 0 ? null : lastLines(installed),
  )
  if (installed.status !== 0) return 1
  if (values.addon !== undefined && example.packages['better-sqlite3'] !== undefined) placeAddon(project, values.addon)

  const passing = run(project, 'npx', example.command, example.env)
  const output = `${passing.stdout}\n${passing.stderr}`
  const missing = example.passes.filter((line) => !line.test(output))
  report(
    `npx ${example.command.join(' ')} passes with its gate`,
    passing.status !== 0 ? lastLines(passing) : missing.length > 0 ? `no line matching ${missing.join(', ')}: ${lastLines(passing)}` : null,
  )

  const path = join(project, example.bug.file)
  const source = readFileSync(path, 'utf8')
  if (!source.includes(example.bug.from)) {
    report(
      'the store with a bug fails',
      `${example.bug.file} no longer contains ${JSON.stringify(example.bug.from)}: update EXAMPLES in scripts/compat-example-cell.js`,
    )
  } else {
    writeFileSync(path, source.replace(example.bug.from, example.bug.to))
    const failing = run(project, 'npx', example.command, example.env)
    const gate = /gate failed/.test(`${failing.stdout}\n${failing.stderr}`)
    report(
      'the store with a bug fails through the gate',
      failing.status === 1 && gate ? null : `expected exit 1 and a "gate failed" line: ${lastLines(failing)}`,
    )
  }
  return failures.length === 0 ? 0 : 1
}

// Run as a script; the tier's runner imports EXAMPLES for the list of example cells.
if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main()
