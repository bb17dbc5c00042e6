#!/usr/bin/env node
// Byte-for-byte check that a refactoring changed no output: every result file, page and printed
// line (stdout, stderr, exit code) of the built CLI's run, score, merge, probe, fuzz, validate and
// corpus --check, on the reference stores, the naive example store, every bug of the catalogue of
// buggy stores and the fault adapter's deterministic faults, and on good and broken input files.
//
//   node scripts/compare-outputs.js capture CHECKOUT FOLDER [--inputs DIR]
//   node scripts/compare-outputs.js compare FOLDER_A FOLDER_B
//
// `capture` runs CHECKOUT/dist/cli/main.js (build it first) with its own test fixtures, and writes
// one folder per case under FOLDER/cases: the files the command wrote, `stdout`, `stderr` and
// `status`. The input files (broken predictions, datasets and corpora, shard files) go to
// FOLDER/inputs; shard files are made through CHECKOUT's dist/ modules, which a refactoring may move,
// so the "after" capture takes the "before" one's with `--inputs BEFORE/inputs`.
//
// Every capture runs from the same place, a copy of what the cases need of CHECKOUT in
// $TMPDIR/timegrounded-compare-outputs, so that no path differs between two captures (one capture at
// a time, then); it is not a git checkout, so run_manifest.json's harness_commit is null in both.
//
// `compare` masks, in both folders, only what differs between two captures of the same build (see
// MASKS: durations in ms and the run's start time), then reports every file that is missing on one
// side or differs, and exits 1 if any does.
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * What legitimately varies between two captures of one build, and nothing else. Found by capturing
 * one build twice and masking until the two folders were identical.
 */
const MASKS = [
  // How long something took, in ms: a JSON field named *_ms (latency_ms, update_lag_ms, ...).
  [/"([a-z_]*_ms)":\s*-?\d+(\.\d+)?(e-?\d+)?/g, '"$1":<ms>'],
  // The figures of the query latency and update lag (report.json's query_latency_ms and update_lag_ms objects).
  [/"(p50|p95|observed_mean|observed_p95)":\s*-?\d+(\.\d+)?(e-?\d+)?/g, '"$1":<ms>'],
  // The same durations as printed and shown on the page: "p50 0.012 ms", "lag 3.1 ms".
  [/\d+(\.\d+)?(e-?\d+)? ms\b/g, '<n> ms'],
  // When a run started (run_manifest.json's started_at), from the clock.
  [/"(started_at)":\s*"[^"]*"/g, '"$1":"<time>"'],
]

/** Environment of every case: no colour, no compile cache, no CI job summary, a fixed time zone. */
function caseEnv(extra = {}) {
  const env = { ...process.env, NO_COLOR: '1', TIMEGROUNDED_CACHE_DIR: 'off', TZ: 'UTC', LC_ALL: 'C', ...extra }
  for (const key of Object.keys(env)) {
    if (key.startsWith('GITHUB_') || key === 'CI' || key === 'FORCE_COLOR' || key === 'TIMEGROUNDED_PROPERTY_SEED') delete env[key]
    if (key.startsWith('TIVARQ_') || key.startsWith('TIMEGROUNDED_JUDGE') || key.startsWith('TIMEGROUNDED_AGENT')) delete env[key]
  }
  return env
}

const BUG_MODES = [
  'none',
  'arrival-order',
  'ingest-time-as-valid',
  'replays-applied-twice',
  'expiry-exclusive',
  'expired-resurrected',
  'add-as-replace',
  'scope-leak',
  'hedges-as-facts',
  'quotes-as-users',
  'withdrawals-ignored',
  'clock-ignored',
  'history-answered-as-current',
  'other-slots-forgotten',
  'reset-does-nothing',
  'module-global-state',
]

/** The fault adapter's faults whose outcome does not hang on a timer (the hanging ones wait out a timeout, the leaving ones leave processes behind). */
const FAULTS = [
  'no-start',
  'wrong-protocol',
  'no-track',
  'no-reset',
  'exit',
  'error-ingest',
  'answer-for-ingest',
  'error-clock',
  'crash',
  'signal',
  'non-json',
  'extra-line',
  'ack-for-query',
  'invalid-state',
  'schema-invalid',
  'huge-line',
  'big-reply',
  'ten-mb',
  'number-overflow',
  'usage-overflow',
  'error-reply',
  'escape-error',
  'ack-with-extras',
  'bad-exit',
]

/** Every case: a name (its folder) and the CLI's arguments (`{inputs}` is filled in); each runs in its own folder. */
function cases(checkout) {
  const upstream = join(checkout, 'test/fixtures/upstream')
  const catalogue = join(checkout, 'test/fixtures/adapters/catalogue-adapter.mjs')
  const fault = join(checkout, 'test/fixtures/adapters/fault-adapter.mjs')
  const node = process.execPath
  const list = []
  const add = (name, ...args) => list.push({ name, args })

  for (const store of ['oracle', 'versioned', 'latest', 'hybrid', 'hybrid-corrections'])
    add(`run-${store}`, 'run', '--split', 'smoke', '--adapter', `builtin:${store}`, '--output', 'out')
  add('run-latest-repeat', 'run', '--split', 'smoke', '--adapter', 'builtin:latest', '--repeat', '2', '--update-polls', '2', '--output', 'out')
  add('run-latest-variant', 'run', '--split', 'smoke', '--adapter', 'builtin:latest', '--variant', '7', '--no-html', '--output', 'out')
  add('run-naive', 'run', '--split', 'smoke', '--output', 'out', '--', node, '{inputs}/naive-adapter.mjs')
  for (const bug of BUG_MODES) add(`run-bug-${bug}`, 'run', '--split', 'smoke', '--output', 'out', '--', node, catalogue, bug)
  for (const mode of FAULTS) add(`run-fault-${mode}`, 'run', '--split', 'smoke', '--output', 'out', '--', node, fault, mode)
  add('run-bad-dataset', 'run', '--split', 'smoke', '--adapter', 'builtin:oracle', '--dataset', '{inputs}/dataset-bad-row', '--output', 'out')

  for (const file of ['predictions.jsonl', 'predictions-two-repetitions.jsonl', 'timegrounded-0.1-predictions.jsonl'])
    add(`score-upstream-${file}`, 'score', join(upstream, file), '--output', 'out')
  add('score-no-html', 'score', join(upstream, 'predictions.jsonl'), '--no-html', '--output', 'out')
  add('score-two-files', 'score', '{inputs}/predictions-1.jsonl', '{inputs}/predictions-2.jsonl', '--output', 'out')
  for (const bad of PREDICTION_DAMAGE.map(([name]) => name)) add(`score-bad-${bad}`, 'score', `{inputs}/predictions-${bad}.jsonl`, '--output', 'out')
  add('score-missing', 'score', '{inputs}/no-such-file.jsonl', '--output', 'out')

  add('merge-oracle', 'merge', '--no-color', '{inputs}/shards-oracle/shard-1-of-2.json', '{inputs}/shards-oracle/shard-2-of-2.json')
  add('merge-latest', 'merge', '--no-color', '{inputs}/shards-latest/shard-1-of-2.json', '{inputs}/shards-latest/shard-2-of-2.json')
  add('merge-latest-update', 'merge', '--no-color', '-u', '{inputs}/shards-latest/shard-1-of-2.json', '{inputs}/shards-latest/shard-2-of-2.json')
  add('merge-incomplete', 'merge', '--no-color', '{inputs}/shards-oracle/shard-1-of-2.json')
  add('merge-not-a-shard', 'merge', '--no-color', '{inputs}/predictions-1.jsonl', '{inputs}/shards-oracle/shard-2-of-2.json')

  add('probe-honest', 'probe')
  add('probe-ingestion-order-ceiling', 'probe', '--agent', 'builtin:ingestion-order', '--ceiling')
  add('probe-json', 'probe', '--json')
  add('probe-timestamps-only', 'probe', '--mode', 'timestamps-only', '--agent', 'builtin:reference-reader')
  add('probe-dry-run', 'probe', '--dry-run')
  add('probe-generated', 'probe', '--dataset', '{inputs}/corpus-30.json')
  for (const bad of CORPUS_DAMAGE.map(([name]) => name)) {
    add(`probe-bad-${bad}`, 'probe', '--dataset', `{inputs}/corpus-${bad}.json`)
    add(`corpus-check-bad-${bad}`, 'corpus', '--check', `{inputs}/corpus-${bad}.json`)
  }
  add('corpus-check-generated', 'corpus', '--check', '{inputs}/corpus-30.json', '--json')

  add('fuzz-latest', 'fuzz', '--adapter', 'builtin:latest')
  add('fuzz-oracle', 'fuzz', '--adapter', 'builtin:oracle', '--runs', '40', '--json')
  for (const bug of ['arrival-order', 'withdrawals-ignored', 'reset-does-nothing']) add(`fuzz-bug-${bug}`, 'fuzz', '--runs', '40', '--', node, catalogue, bug)
  add('fuzz-naive', 'fuzz', '--runs', '40', '--', node, '{inputs}/naive-adapter.mjs')

  add('validate-bundled', 'validate')
  for (const bad of DATASET_DAMAGE.map(([name]) => name)) add(`validate-${bad}`, 'validate', '--dataset', `{inputs}/dataset-${bad}`, '--split', 'smoke')
  return list
}

/** Broken predictions files, each from upstream's good one: [name, how its text is changed]. */
const PREDICTION_DAMAGE = [
  ['bom', (text) => `\uFEFF${text}`],
  ['crlf', (text) => text.replaceAll('\n', '\r\n')],
  ['syntax', (text) => text.replace(/\n/, '\n{"probe_id": \n')],
  ['status', (text) => text.replace('"status": "answered"', '"status": "done"').replace('"status":"answered"', '"status":"done"')],
  ['duplicate', (text) => `${text.split('\n')[0]}\n${text}`],
  ['empty', () => ''],
  ['blank-lines', (text) => text.replace(/\n/, '\n\n  \n')],
  ['latin1', (text) => Buffer.concat([Buffer.from(text), Buffer.from('{"probe_id": "caf\xe9"}\n', 'latin1')])],
  ['no-final-newline', (text) => text.trimEnd()],
]

/** Broken TIVARQ directories, each a copy of the bundled one with its smoke episodes changed. */
const DATASET_DAMAGE = [
  ['bad-row', (text) => text.replace(/"family":\s*"[^"]+"/, '"family": 7')],
  ['bom', (text) => `\uFEFF${text}`],
  ['crlf', (text) => text.replaceAll('\n', '\r\n')],
  ['syntax', (text) => text.replace(/\n/, '\n{"episode_id":\n')],
  ['deep', (text) => `${'['.repeat(5000)}${']'.repeat(5000)}\n${text}`],
]

/** Broken LongMemEval-shaped files, each from a generated corpus's JSON text. */
const CORPUS_DAMAGE = [
  ['bom', (text) => `\uFEFF${text}`],
  ['syntax', (text) => text.replace(/"question":/, '"question" ')],
  ['not-array', () => '{"question_id": "q1"}'],
  ['empty', () => ''],
  ['shape', (text) => text.replace(/"question":\s*"/, '"question": 3, "was": "')],
  ['invalid-utf8', (text) => Buffer.concat([Buffer.from(text.slice(0, 40)), Buffer.from([0xc3, 0x28]), Buffer.from(text.slice(40))])],
]

/** Runs one process, capturing its output; never rejects. */
function runProcess(command, args, options) {
  return new Promise((done) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    const stdout = []
    const stderr = []
    child.stdout.on('data', (chunk) => stdout.push(chunk))
    child.stderr.on('data', (chunk) => stderr.push(chunk))
    child.on('close', (code, signal) =>
      done({ status: code === null ? `signal ${signal}` : String(code), stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }),
    )
  })
}

function writeFile(path, data) {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, data)
}

/** The naive example store (TypeScript, type imports only) served as an adapter process by CHECKOUT's own server. */
async function writeNaiveAdapter(checkout, inputs) {
  const ts = (await import(pathToFileURL(join(checkout, 'node_modules/typescript/lib/typescript.js')).href)).default
  const source = readFileSync(join(checkout, 'examples/naive-store/src/store.ts'), 'utf8')
  const compiled = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText
  writeFile(join(inputs, 'naive-store.mjs'), compiled)
  const serve = pathToFileURL(join(checkout, 'dist/adapters/serve.js')).href
  const adapter = [
    `import { serveNdjson } from ${JSON.stringify(serve)}`,
    `import { createNaiveStore } from './naive-store.mjs'`,
    'await serveNdjson(() => createNaiveStore(), process.stdin, process.stdout)',
    '',
  ].join('\n')
  writeFile(join(inputs, 'naive-adapter.mjs'), adapter)
}

/** Shard files of two partitions of the smoke split with a reference store, made as test/cli/merge.test.ts makes them. */
async function writeShards(checkout, inputs, store) {
  const load = (path) => import(pathToFileURL(join(checkout, 'dist', path)).href)
  const { referenceStore } = await load('adapters/reference/index.js')
  const { openPool } = await load('harness/pool.js')
  const { resolveSuiteOptions } = await load('suite/options.js')
  const { planSuite, settleProbe } = await load('suite/probes.js')
  const { finishedRecord } = await load('suite/records.js')
  const { scheduleEpisodes } = await load('suite/scheduler.js')
  const { writeShardFile } = await load('suite/shards.js')
  const { loadSplitSync } = await load('tivarq/dataset-sync.js')
  const options = { thresholds: { staleValueLeakageRate: { max: 0.05 } } }
  const run = { package: 'timegrounded@0.0.0-compare', commit: '0123456789abcdef0123456789abcdef01234567', runId: 'GITHUB_RUN_ID=41' }
  for (const index of [1, 2]) {
    const settings = resolveSuiteOptions({ split: 'smoke', partition: { index, count: 2 } })
    const plan = planSuite(loadSplitSync(undefined, 'smoke'), settings)
    const pool = await openPool(referenceStore(store), { track: 'structured', concurrency: 1 })
    const scheduled = scheduleEpisodes({ pool, episodes: plan.episodes, selected: () => true, runner: { track: 'structured' }, concurrency: 1, repeats: 1 })
    const records = []
    for (const { episode, probes } of plan.episodes) {
      for (const { probe, record } of probes) {
        const rows = await scheduled.rows(probe.probe_id)
        const settled = settleProbe(rows, episode, probe, { status: 'missing' }, false)
        records.push({ file: `/project/test/part-${index}.test.ts`, record: finishedRecord(record, rows, settled), blockErrors: [] })
      }
    }
    await scheduled.done
    await pool.close()
    const path = join(inputs, `shards-${store}`, `shard-${index}-of-2.json`)
    mkdirSync(dirname(path), { recursive: true })
    writeShardFile(path, { runner: 'jest', shard: { index, count: 2 }, update: false, options, run, loadErrors: [], records })
  }
}

/** Every input file the cases read, made from CHECKOUT's fixtures and CLI. */
async function writeInputs(checkout, inputs) {
  const cli = join(checkout, 'dist/cli/main.js')
  const upstream = readFileSync(join(checkout, 'test/fixtures/upstream/predictions.jsonl'), 'utf8')
  for (const [name, damage] of PREDICTION_DAMAGE) writeFile(join(inputs, `predictions-${name}.jsonl`), damage(upstream))
  const repetitions = readFileSync(join(checkout, 'test/fixtures/upstream/predictions-two-repetitions.jsonl'), 'utf8').split('\n')
  const half = Math.ceil(repetitions.length / 2)
  writeFile(join(inputs, 'predictions-1.jsonl'), `${repetitions.slice(0, half).join('\n')}\n`)
  writeFile(join(inputs, 'predictions-2.jsonl'), repetitions.slice(half).join('\n'))

  for (const [name, damage] of DATASET_DAMAGE) {
    const dir = join(inputs, `dataset-${name}`)
    cpSync(join(checkout, 'fixtures/tivarq-v1'), dir, { recursive: true })
    writeFileSync(join(dir, 'episodes_smoke.jsonl'), damage(readFileSync(join(dir, 'episodes_smoke.jsonl'), 'utf8')))
  }

  const corpus = join(inputs, 'corpus-30.json')
  const made = await runProcess(process.execPath, [cli, 'corpus', '--size', '30', '--seed', '3', '--out', corpus], { env: caseEnv() })
  if (made.status !== '0') throw new Error(`corpus --size 30 failed: ${made.stderr}`)
  const text = readFileSync(corpus, 'utf8')
  for (const [name, damage] of CORPUS_DAMAGE) writeFile(join(inputs, `corpus-${name}.json`), damage(text))

  await writeNaiveAdapter(checkout, inputs)
  for (const store of ['oracle', 'latest']) await writeShards(checkout, inputs, store)
}

/**
 * Where every capture runs, whatever the checkout and the folder asked for: paths are part of the output
 * (messages quote the adapter's command, the page cuts long texts at a fixed length and fingerprints
 * them), so both captures must see the same ones. One capture at a time, then.
 */
const STAGE = join(tmpdir(), 'timegrounded-compare-outputs')
/** What the cases need of a checkout; node_modules is linked, not copied. */
const STAGED_PARTS = ['package.json', 'dist', 'fixtures', 'test/fixtures', 'bench/fixtures', 'examples/naive-store']

async function capture(checkout, folder, givenInputs) {
  if (!existsSync(join(checkout, 'dist/cli/main.js'))) throw new Error(`${checkout}/dist/cli/main.js does not exist: build ${checkout} first (npm run build)`)
  rmSync(STAGE, { recursive: true, force: true })
  const staged = join(STAGE, 'checkout')
  for (const part of STAGED_PARTS) cpSync(join(checkout, part), join(staged, part), { recursive: true })
  symlinkSync(join(checkout, 'node_modules'), join(staged, 'node_modules'))
  const inputs = join(STAGE, 'inputs')
  if (givenInputs) cpSync(givenInputs, inputs, { recursive: true })
  else await writeInputs(staged, inputs)
  // The naive adapter names the server of the build it runs against.
  await writeNaiveAdapter(staged, inputs)

  const cli = join(staged, 'dist/cli/main.js')
  const queue = cases(staged)
  const fill = (arg) => arg.replaceAll('{inputs}', inputs)
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const dir = join(STAGE, 'cases', next.name)
      mkdirSync(dir, { recursive: true })
      const result = await runProcess(process.execPath, [cli, ...next.args.map(fill)], { cwd: dir, env: caseEnv() })
      writeFileSync(join(dir, 'stdout'), result.stdout)
      writeFileSync(join(dir, 'stderr'), result.stderr)
      writeFileSync(join(dir, 'status'), `${result.status}\n`)
      process.stderr.write(`${next.name}: exit ${result.status}\n`)
    }
  }
  await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, worker))
  rmSync(folder, { recursive: true, force: true })
  for (const part of ['inputs', 'cases']) cpSync(join(STAGE, part), join(folder, part), { recursive: true })
  writeFile(join(folder, 'checkout'), `${checkout}\n`)
  rmSync(STAGE, { recursive: true, force: true })
}

function filesUnder(root) {
  const found = []
  const walk = (dir) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry)
      if (statSync(path).isDirectory()) walk(path)
      else found.push(relative(root, path))
    }
  }
  walk(root)
  return found
}

/** A captured file with what varies masked (MASKS). */
function masked(folder, path) {
  let text = readFileSync(join(folder, path)).toString('latin1')
  for (const [pattern, replacement] of MASKS) text = text.replace(pattern, replacement)
  return text
}

function compare(a, b) {
  const filesA = new Set(filesUnder(join(a, 'cases')).map((path) => join('cases', path)))
  const filesB = new Set(filesUnder(join(b, 'cases')).map((path) => join('cases', path)))
  const problems = []
  for (const path of filesA) if (!filesB.has(path)) problems.push(`only in ${a}: ${path}`)
  for (const path of filesB) if (!filesA.has(path)) problems.push(`only in ${b}: ${path}`)
  let same = 0
  for (const path of [...filesA].filter((path) => filesB.has(path))) {
    const left = masked(a, path)
    const right = masked(b, path)
    if (left === right) {
      same++
      continue
    }
    let at = 0
    while (left[at] === right[at]) at++
    const around = (text) => JSON.stringify(text.slice(Math.max(0, at - 60), at + 60))
    problems.push(`differs: ${path} at byte ${at}\n  ${a}: ${around(left)}\n  ${b}: ${around(right)}`)
  }
  for (const line of problems) process.stdout.write(`${line}\n`)
  const cases = new Set([...filesA].map((path) => path.split('/')[1])).size
  process.stdout.write(`${same} of ${new Set([...filesA, ...filesB]).size} files identical after masking, over ${cases} cases; ${problems.length} problems\n`)
  return problems.length === 0 ? 0 : 1
}

const [command, first, second, ...rest] = process.argv.slice(2)
if (command === 'capture' && first && second) {
  const at = rest.indexOf('--inputs')
  await capture(resolve(first), resolve(second), at === -1 ? undefined : resolve(rest[at + 1]))
} else if (command === 'compare' && first && second) {
  process.exitCode = compare(resolve(first), resolve(second))
} else {
  process.stderr.write(
    'usage: node scripts/compare-outputs.js capture CHECKOUT FOLDER [--inputs DIR]\n       node scripts/compare-outputs.js compare FOLDER_A FOLDER_B\n',
  )
  process.exitCode = 2
}
