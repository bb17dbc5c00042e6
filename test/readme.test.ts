/**
 * Issues 6 and 11: every command in the docs — README.md, every Markdown file
 * under docs/, and the examples' READMEs — is run by a test or by `.ci/run`.
 *
 * The shell commands are read out of their code blocks (every line of a
 * `sh`/`bash`/`shell` block, and the `$ ` lines of `console`, `text` and
 * unlabelled blocks; see test/docs/markdown.ts). Each one must be covered in
 * one of three ways:
 *
 * - RUN_HERE: run for real below, in the order of the docs, in one scratch project
 *   (`timegrounded` / `npx timegrounded` is the built CLI, `dist/cli/main.js`,
 *   also on PATH for adapter commands; `timegrounded` resolves as a package
 *   there too), checking the exit code the docs imply and its output
 *   (when the docs print output under a `$ ` line, all of it, line by line);
 * - COVERED_ELSEWHERE: a test file that runs the same command, checked by
 *   reading that file for the line that runs it;
 * - BY_CI: a step of `.ci/run` (or the npm script a step runs).
 *
 * A documented command in none of these fails its test here, naming its file
 * and line and how to cover it, so a command cannot be documented without
 * being run.
 * Needs dist/ (npm test builds it first).
 */
import { spawnSync } from 'node:child_process'
import { appendFileSync, chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { jsonSchemas } from '../src/index.js'
import { DOC_FILES, documentedCommands, readDoc, REPO } from './docs/markdown.js'
import { expectPublishedMetrics, PUBLISHED_LATEST_SMOKE } from './support/published.js'

const CLI = join(REPO, 'dist/cli/main.js')

// ------------------------------------------------------------ the scratch project

let work = ''
const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
// The outer Vitest's markers, and a CI job summary the runs would append to.
for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'GITHUB_STEP_SUMMARY') delete env[key]

/** Shell-like words of `command`: whitespace splits, quotes group and are removed. */
function words(command: string): string[] {
  const result: string[] = []
  let word: string | null = null
  let quote: string | null = null
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!
    if (quote !== null) {
      if (char === quote) quote = null
      // Inside double quotes a backslash escapes only $ ` " \ and a newline, as in sh.
      else if (char === '\\' && quote === '"' && i + 1 < command.length && '$`"\\\n'.includes(command[i + 1]!)) word = (word ?? '') + command[++i]
      else word = (word ?? '') + char
    } else if (char === '"' || char === "'") {
      quote = char
      word ??= ''
    } else if (/\s/.test(char)) {
      if (word !== null) result.push(word)
      word = null
    } else if (char === '\\' && i + 1 < command.length) {
      if (command[i + 1] !== '\n') word = (word ?? '') + command[i + 1]
      i++
    } else word = (word ?? '') + char
  }
  if (word !== null) result.push(word)
  return result
}

interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs a documented command in the scratch project: `npx timegrounded`/`timegrounded` is the built CLI, `node` is this Node. */
function sh(command: string): Ran {
  let argv = words(command)
  if (argv[0] === 'npx' && argv[1] === 'timegrounded') argv = argv.slice(1)
  if (argv[0] === 'timegrounded') argv = [process.execPath, CLI, ...argv.slice(1)]
  else if (argv[0] === 'node') argv = [process.execPath, ...argv.slice(1)]
  const result = spawnSync(argv[0]!, argv.slice(1), { cwd: work, env, encoding: 'utf8', timeout: 60_000 })
  if (result.error !== undefined) throw new Error(`\`${command}\` could not run: ${result.error.message}`)
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

function explain(command: string, ran: Ran): string {
  return `\`${command}\` exited ${ran.code}\n--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`
}

/** Output as the docs show it: the package at `/…/node_modules/timegrounded`, the user's directory `/home/me`. */
function asDocumented(text: string): string[] {
  const lines = text.replaceAll(REPO, '/…/node_modules/timegrounded').replaceAll(work, '/home/me').split('\n')
  while (lines.at(-1) === '') lines.pop()
  return lines
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(join(work, path), 'utf8'))
}

/** The documented `report.json` example (`builtin:latest` on the smoke split). */
function documentedReport(): Record<string, unknown> {
  for (const file of DOC_FILES) {
    const block = /```json\n(\{\n {2}"complete"[\s\S]*?)```/.exec(readDoc(file))
    if (block !== null) return JSON.parse(block[1]!) as Record<string, unknown>
  }
  throw new Error('no doc shows a report.json example starting with "complete" any more')
}

/** The parts of a report that do not depend on timing. */
function withoutTimings(report: unknown): unknown {
  const { by_family: _families, metrics, ...rest } = report as { by_family: unknown; metrics: Record<string, unknown> }
  const { query_latency_ms: _latency, update_lag_ms: lag, ...quality } = metrics
  const { observed_mean: _mean, observed_p95: _p95, ...lagCounts } = lag as Record<string, unknown>
  return { ...rest, metrics: { ...quality, update_lag_ms: lagCounts } }
}

// ---------------------------------------------------------------- coverage

interface RunHere {
  /** Exit code the docs imply. */
  exit: number
  /** Puts in the scratch project what the command needs (files the docs tell the user to have). */
  before?: () => void
  /** What the docs say the command does, checked on its result. */
  check: (ran: Ran) => void
}

const ADAPTER = join(REPO, 'test/fixtures/adapters/upstream_latest_adapter.py')
const CORPUS = 'fixtures/timegrounded/timegrounded-v1.json'

/** Needs a run's predictions: make them with the docs' own run command if an earlier test did not. */
function ensureLatestRun(): void {
  if (!existsSync(join(work, 'out/latest/predictions.jsonl')))
    expect(sh('timegrounded run --split smoke --adapter builtin:latest --output out/latest').code).toBe(0)
}

/** A smoke run of a last-write-wins store scores what the docs say `latest` scores. */
function checkLatestSmoke(dir: string, ran: Ran): void {
  expect(ran.stdout).toContain('60 probes: 54 answered, 6 unsupported, 0 errors')
  expect(ran.stdout).toMatch(/Transition success\s+0\.9 \(10\)/)
  for (const file of ['run_manifest.json', 'predictions.jsonl', 'report.json']) expect(existsSync(join(work, dir, file)), `${dir}/${file}`).toBe(true)
  const { metrics, probe_counts } = readJson(join(dir, 'report.json')) as { metrics: Record<string, unknown>; probe_counts: unknown }
  expect(probe_counts).toEqual(PUBLISHED_LATEST_SMOKE.probe_counts)
  expectPublishedMetrics(metrics, PUBLISHED_LATEST_SMOKE)
}

/** The corruption the docs' `validate --dataset ./tivarq` example shows: an unknown op and a wrong gold answer. */
function corruptDataset(): void {
  expect(sh('timegrounded generate --out ./tivarq').code).toBe(0)
  const edit = (file: string, line: number, from: string, to: string): void => {
    const path = join(work, 'tivarq', file)
    const rows = readFileSync(path, 'utf8').split('\n')
    expect(rows[line - 1], `${file}:${line}`).toContain(from)
    rows[line - 1] = rows[line - 1]!.replace(from, to)
    writeFileSync(path, rows.join('\n'))
  }
  edit('episodes_dev.jsonl', 3, '"op":"noop"', '"op":"delete"')
  edit('probes_dev.jsonl', 7, '"expected":{"state":"known","value":"morning"}', '"expected":{"state":"known","value":"evening"}')
}

/** The lines of the first code block of `file` that starts with `first`: stderr a page shows, which the runner cannot compare by itself. */
function documentedStderr(file: string, first: string): string {
  const blocks = readDoc(file).split('```')
  const block = blocks.find((text) => text.replace(/^\w*\n/, '').startsWith(first))
  if (block === undefined) throw new Error(`${file} shows no block starting with ${first}`)
  return block.replace(/^\w*\n/, '').trimEnd()
}

/** Commands run for real here, keyed by the exact text of the docs. */
const RUN_HERE: Record<string, RunHere> = {
  // docs/property-testing.md
  'npx timegrounded fuzz --adapter builtin:oracle': {
    exit: 0,
    check: (ran) => {
      expect(ran.stdout).toContain('timegrounded properties: seed 20261001, 200 cases of up to 2 timelines of up to 12 events against builtin:oracle')
      expect(ran.stdout).toMatch(/^properties passed: 200 cases, \d+ timelines, \d+ queries \(seed 20261001\)/m)
    },
  },
  'npx timegrounded fuzz --json -- python3 my_adapter.py': {
    exit: 1,
    before: () => copyFileSync(ADAPTER, join(work, 'my_adapter.py')),
    check: (ran) => {
      const result = JSON.parse(ran.stdout) as { status: string; failures: number; counterexamples: { episodes: unknown[]; diagnosis: string }[] }
      expect(result).toMatchObject({ status: 'failed', failures: 1 })
      expect(result.counterexamples[0]!.episodes.length).toBeGreaterThan(0)
    },
  },
  'npx timegrounded fuzz --adapter builtin:latest': {
    exit: 1,
    check: (ran) => expect(ran.stdout).toContain('meaning:  addition treated as a replacement'),
  },
  'npx timegrounded fuzz --seed 20261001 --path 1:3:1:2:3:4:4:4:4 --adapter builtin:latest': {
    exit: 1,
    check: (ran) => {
      expect(ran.stdout).toContain('property failed after 1 case (seed 20261001)')
      expect(ran.stdout).toMatch(/e1 +2025-01-01 +2025-01-01 +- +add +interface_language\/personal +"English" +user/)
    },
  },
  'npx timegrounded run --episodes regressions.json --adapter builtin:latest --output out/regressions': {
    exit: 0,
    before: () => {
      // The line the documented failure printed, saved as the docs say.
      const page = readFileSync(join(REPO, 'docs/property-testing.md'), 'utf8')
      writeFileSync(join(work, 'regressions.json'), page.split('\n').find((line) => line.startsWith('[{"episode_id":"property-'))!)
    },
    check: (ran) => {
      expect(ran.stdout).toContain('1 probes: 1 answered, 0 unsupported, 0 errors; complete')
      const rows = readFileSync(join(work, 'out/regressions/predictions.jsonl'), 'utf8').trim().split('\n')
      expect(JSON.parse(rows[0]!)).toMatchObject({ expected: { state: 'known', value: ['English'] }, prediction: { state: 'known', value: 'English' } })
    },
  },
  'npx timegrounded run --split smoke --output out/mine -- python3 my_adapter.py': {
    exit: 0,
    // "adapters written for the upstream Python harness run unchanged": the project's upstream-style adapter.
    before: () => copyFileSync(ADAPTER, join(work, 'my_adapter.py')),
    check: (ran) => {
      checkLatestSmoke('out/mine', ran)
      expect((readJson('out/mine/run_manifest.json') as { adapter: { command: unknown } }).adapter.command).toEqual(['python3', 'my_adapter.py'])
    },
  },
  'npx timegrounded run --split smoke --output out/latest -- timegrounded reference latest': {
    exit: 0,
    check: (ran) => {
      checkLatestSmoke('out/latest', ran)
      expect((readJson('out/latest/run_manifest.json') as { adapter: { command: unknown } }).adapter.command).toEqual(['timegrounded', 'reference', 'latest'])
    },
  },
  'npx timegrounded run --split smoke --adapter builtin:latest --output out/latest': {
    exit: 0,
    check: (ran) => {
      checkLatestSmoke('out/latest', ran)
      // The HTML report beside it, named last.
      expect(ran.stdout.trimEnd().split('\n').at(-1)).toBe(`HTML report in ${join(work, 'out/latest/report.html')}`)
      expect(existsSync(join(work, 'out/latest/report.html'))).toBe(true)
      // The documented report.json example is this run ("latencies vary from run to run").
      expect(withoutTimings(readJson('out/latest/report.json'))).toEqual(withoutTimings(documentedReport()))
    },
  },
  'npx timegrounded run --split dev --output out/mine -- python3 my_adapter.py': {
    exit: 0,
    before: () => copyFileSync(ADAPTER, join(work, 'my_adapter.py')),
    check: (ran) => {
      expect(ran.stdout).toMatch(/^240 probes: \d+ answered, \d+ unsupported, 0 errors; complete$/m)
      const report = readJson('out/mine/report.json') as { complete: boolean; probe_counts: { total: number } }
      expect(report.complete).toBe(true)
      expect(report.probe_counts.total).toBe(240)
    },
  },
  // docs/comparing.md: three test-split runs, then compare on them (in the page's order).
  'npx timegrounded run --split test --adapter builtin:hybrid --output out/hybrid-test': {
    exit: 0,
    check: (ran) => expect(ran.stdout).toMatch(/^900 probes: 900 answered, 0 unsupported, 0 errors; complete$/m),
  },
  'npx timegrounded run --split test --adapter builtin:hybrid-corrections --output out/hybrid-corrections-test': {
    exit: 0,
    check: (ran) => expect(ran.stdout).toMatch(/^900 probes: 900 answered, 0 unsupported, 0 errors; complete$/m),
  },
  'npx timegrounded run --split test --adapter builtin:latest --output out/latest-test': {
    exit: 0,
    check: (ran) => expect(ran.stdout).toMatch(/^900 probes: \d+ answered, \d+ unsupported, 0 errors; complete$/m),
  },
  'npx timegrounded compare out/latest-test out/hybrid-test': {
    exit: 2,
    check: (ran) => {
      expect(ran.stdout).toBe('')
      expect(ran.stderr.trimEnd()).toBe(documentedStderr('docs/comparing.md', 'timegrounded compare: out/latest-test and out/hybrid-test'))
    },
  },
  // Its whole stdout is compared with the page's output block; nothing may go to stderr.
  'npx timegrounded compare out/hybrid-test out/hybrid-corrections-test': { exit: 0, check: (ran) => expect(ran.stderr).toBe('') },
  'npx timegrounded compare out/hybrid-corrections-test out/hybrid-test --fail-if-worse transitionSuccessRate staleValueLeakageRate': {
    exit: 1,
    check: (ran) => {
      expect(ran.stdout).toMatch(/│ Transition success +│ 0\.923077 \(180 of 195\) │ 0\.846154 \(165 of 195\) │ −0\.077 │/)
      expect(ran.stderr.trimEnd()).toBe(documentedStderr('docs/comparing.md', 'timegrounded compare: B is shown worse'))
    },
  },
  'npx timegrounded compare out/hybrid-test out/hybrid-corrections-test --json --metrics transitionSuccessRate': {
    exit: 0,
    check: (ran) => {
      const record = JSON.parse(ran.stdout) as Record<string, unknown>
      // The fields the page's table lists, and no other.
      expect(Object.keys(record).sort()).toEqual(
        ['a', 'b', 'confidence', 'correction', 'families', 'generator', 'identity', 'metricLevel', 'metrics', 'probes', 'resamples', 'seed', 'verdicts'].sort(),
      )
      expect(record).toMatchObject({
        a: { name: 'out/hybrid-test', repetitions: 1, errors: 0, complete: true },
        identity: { split: 'test', track: 'conversation', variant: 'TIVARQ v1' },
        correction: 'bonferroni',
        generator: 'xor4096',
        metricLevel: 0.99,
        metrics: [
          {
            metric: 'transitionSuccessRate',
            family: null,
            a: { numerator: 165, denominator: 195 },
            b: { numerator: 180, denominator: 195 },
            verdict: 'better',
          },
        ],
        probes: { repetitionsCompared: 1, unsupported: 0, mcnemar: { fixed: 15, broken: 0 } },
      })
      expect((record.probes as { fixed: unknown[] }).fixed).toHaveLength(15)
    },
  },
  'npx timegrounded compare out/hybrid-test out/hybrid-corrections-test --html out/compare.html': {
    exit: 0,
    check: (ran) => {
      expect(ran.stdout.trimEnd().split('\n').at(-1)).toBe(`HTML report: ${join(work, 'out/compare.html')}`)
      const page = readFileSync(join(work, 'out/compare.html'), 'utf8')
      // The page data: the 15 probes B fixed, none broken, and both runs named.
      expect(page.match(/"change":"fixed"/g)).toHaveLength(15)
      expect(page).not.toContain('"change":"broken"')
      expect(page).toContain('"a":"out/hybrid-test","b":"out/hybrid-corrections-test"')
    },
  },
  'npx timegrounded score out/latest/predictions.jsonl --output out/rescored': {
    exit: 0,
    before: ensureLatestRun,
    check: (ran) => {
      expect(ran.stdout).toMatch(/Transition success\s+0\.9 \(10\)/)
      // "Re-scoring a run's predictions.jsonl with the run's seed reproduces its report.json exactly."
      expect(readFileSync(join(work, 'out/rescored/report.json'), 'utf8')).toBe(readFileSync(join(work, 'out/latest/report.json'), 'utf8'))
      expect(existsSync(join(work, 'out/rescored/report.html'))).toBe(true)
    },
  },
  [`node --input-type=module -e "
import { jsonSchemas } from 'timegrounded'
import { writeFileSync } from 'node:fs'
for (const [name, schema] of Object.entries(jsonSchemas)) writeFileSync(name + '.schema.json', JSON.stringify(schema, null, 2) + '\\n')
"`]: {
    exit: 0,
    check: () => {
      const names = Object.keys(jsonSchemas)
      expect(names.sort()).toEqual(['answer', 'assertion', 'episode', 'event', 'manifest', 'probe'])
      for (const name of names) {
        expect(readJson(`${name}.schema.json`), `${name}.schema.json`).toEqual(JSON.parse(JSON.stringify(jsonSchemas[name as keyof typeof jsonSchemas])))
      }
    },
  },
  'npx timegrounded validate': { exit: 0, check: () => undefined },
  'npx timegrounded validate --dataset ./tivarq': { exit: 1, before: corruptDataset, check: () => undefined },
  'npx timegrounded generate --out ./tivarq': {
    exit: 0,
    check: () => {
      // "any dataset files already in it are replaced": the directory is valid again.
      const again = sh('timegrounded validate --dataset ./tivarq')
      expect(again.stdout, explain('timegrounded validate --dataset ./tivarq', again)).toContain(': valid')
      expect(again.code).toBe(0)
    },
  },
  'timegrounded corpus --out fixtures/timegrounded/timegrounded-v1.json': {
    exit: 0,
    check: () => expect(readFileSync(join(work, CORPUS), 'utf8')).toBe(readFileSync(join(REPO, CORPUS), 'utf8')),
  },
  // The script writes next to itself (../fixtures), so it runs from a copy laid out like the repository.
  'node scripts/gen-timegrounded-corpus.js': {
    exit: 0,
    before: () => {
      copyScript()
      writeFileSync(join(work, CORPUS), 'stale\n')
    },
    check: (ran) => {
      expect(ran.stdout).toContain('wrote 12 questions of timegrounded-timegrounded-v1')
      expect(readFileSync(join(work, CORPUS), 'utf8')).toBe(readFileSync(join(REPO, CORPUS), 'utf8'))
    },
  },
  'node scripts/gen-timegrounded-corpus.js --check': {
    exit: 0,
    before: () => {
      copyScript()
      copyFileSync(join(REPO, CORPUS), join(work, CORPUS))
    },
    check: (ran) => {
      expect(ran.stdout).toContain('up to date')
      // "exit 1 if the fixture is stale"
      appendFileSync(join(work, CORPUS), ' ')
      const stale = sh('node scripts/gen-timegrounded-corpus.js --check')
      expect(stale.stdout).toContain('stale')
      expect(stale.code).toBe(1)
    },
  },
  'timegrounded probe --agent builtin:ingestion-order --ceiling': { exit: 0, check: () => undefined },
  // A peer-shaped file of our own (free-text answers, no machine_gold, a session after its question): rules broken, exit 1.
  'timegrounded corpus --check my-corpus.json': {
    exit: 1,
    before: () => copyFileSync(join(REPO, 'test/time-grounded/fixtures/peer-free-text.json'), join(work, 'my-corpus.json')),
    check: (ran) => {
      expect(ran.stdout).toContain('Corpus check of my-corpus.json: 6 entries')
      expect(ran.stdout).toContain('2 of 7 rules broken, in 2 of 6 entries.')
    },
  },
  'timegrounded corpus --check my-corpus.json --json': {
    exit: 1,
    before: () => copyFileSync(join(REPO, 'test/time-grounded/fixtures/peer-free-text.json'), join(work, 'my-corpus.json')),
    check: (ran) => expect(JSON.parse(ran.stdout)).toMatchObject({ file: 'my-corpus.json', entries: 6, entries_with_machine_gold: 0, ok: false }),
  },
  'npx timegrounded generate --variant 7 --out ./tivarq-v7': {
    exit: 0,
    check: (ran) => {
      expect(ran.stdout).toContain('Wrote TIVARQ variant 7 (timegrounded-variant v1) (7 files) to ./tivarq-v7')
      // The manifest excerpt the docs show.
      const manifest = readJson('tivarq-v7/manifest.json') as { generator: unknown; seed: number }
      expect(manifest.generator).toEqual({
        name: 'timegrounded-variant',
        variations: ['paraphrases', 'topics', 'mixed_offsets', 'same_instant_replays', 'shuffled_arrivals'],
        version: 1,
      })
      expect(manifest.seed).toBe(7)
    },
  },
  'npx timegrounded validate --dataset ./tivarq-v7': {
    exit: 0,
    before: () => {
      if (!existsSync(join(work, 'tivarq-v7/manifest.json'))) expect(sh('timegrounded generate --variant 7 --out ./tivarq-v7').code).toBe(0)
    },
    check: (ran) => expect(ran.stdout).toContain('TIVARQ variant 7 (timegrounded-variant v1): every gold answer, id and per-family count checked'),
  },
  'npx timegrounded run --variant 7 --split test --adapter builtin:versioned --output out/v7': {
    exit: 0,
    check: (ran) => {
      expect(ran.stdout).toContain('TIVARQ variant 7 (timegrounded-variant v1) test · structured track · builtin:versioned')
      expect(ran.stdout).toMatch(/Transition success\s+1\.0 \(195\)/)
      const { dataset } = readJson('out/v7/run_manifest.json') as { dataset: { source: string; variant: { seed: number; generator_version: number } } }
      expect(dataset.source).toBe('generated in memory')
      expect(dataset.variant).toMatchObject({ seed: 7, generator: 'timegrounded-variant', generator_version: 1 })
    },
  },
  'timegrounded corpus --size 600 --seed 7 --out corpus-600.json': {
    exit: 0,
    check: (ran) => {
      expect(ran.stdout).toMatch(/^wrote 600 questions of timegrounded-generated-v1-seed7-n600 to corpus-600\.json \(sha256 [0-9a-f]{64}\)$/m)
      expect((readJson('corpus-600.json') as unknown[]).length).toBe(600)
    },
  },
  'timegrounded probe --dataset corpus-600.json --agent builtin:ingestion-order': {
    exit: 0,
    before: () => {
      if (!existsSync(join(work, 'corpus-600.json'))) expect(sh('timegrounded corpus --size 600 --seed 7 --out corpus-600.json').code).toBe(0)
    },
    check: (ran) => {
      expect(ran.stdout).toContain('Time-grounded probe: ingestion-order on timegrounded-generated-v1-seed7-n600')
      expect(ran.stdout).toContain('control (timestamps-and-text)  100.0% (600/600)')
      expect(ran.stdout).toContain('paired bootstrap over 600 questions')
    },
  },
}

function copyScript(): void {
  mkdirSync(join(work, 'scripts'), { recursive: true })
  mkdirSync(join(work, 'fixtures/timegrounded'), { recursive: true })
  copyFileSync(join(REPO, 'scripts/gen-timegrounded-corpus.js'), join(work, 'scripts/gen-timegrounded-corpus.js'))
  if (!existsSync(join(work, 'dist'))) symlinkSync(join(REPO, 'dist'), join(work, 'dist'), 'dir')
}

interface CoveredElsewhere {
  /** The test file that runs the command. */
  file: string
  /** The title of the test in that file that runs it; left out when its setup or a helper runs it for every test of the file. */
  test?: string
  /** Text of that file that runs it (each must appear). */
  runs: string[]
  /** Why it is not run here. */
  why: string
}

const WATCH_MODE: CoveredElsewhere = {
  file: 'test/vitest/watch.test.ts',
  runs: ["[VITEST_BIN, '--watch', '--root', root, ...args]", "startWatch('edits', [])"],
  why: 'watch mode runs until stopped; that test edits a store under a live watcher',
}

/** Commands another test runs, keyed by the exact text of the docs. */
const COVERED_ELSEWHERE: Record<string, CoveredElsewhere> = {
  'node scripts/property-catalogue.js': {
    file: 'test/scripts/property-catalogue.test.ts',
    runs: ["['scripts/property-catalogue.js', '--seeds', '1', '--correct-timelines', '300']"],
    why: 'ten seeds per bug and 10,000 timelines per correct store take minutes; that test runs the same script with one seed and 300 timelines',
  },
  'node scripts/compare-simulation.js': {
    file: 'test/scripts/compare-simulation.test.ts',
    runs: ["['scripts/compare-simulation.js', '--comparisons', '40', '--noise', '0.01', '--noise-comparisons', '5']"],
    why: '2,300 seeded comparisons take minutes; that test runs the same script with 40 comparisons and checks both promised bounds on them',
  },
  'npm pack': {
    file: 'test/support/e2e-setup.ts',
    runs: ["spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work]"],
    why: "packs this repository; the e2e tier's global setup packs the built project once for every test that installs it (the build is npm test's first step, as `npm pack` runs it through prepack)",
  },
  'npm i -D ../timegrounded/timegrounded-0.1.0.tgz vitest@4.1.12': {
    file: 'test/package.test.ts',
    runs: ["['install', tarball, `vitest@${packageJson.devDependencies['vitest']}`"],
    why: 'installs the packed tarball and vitest into a fresh project, as that test does',
  },
  'npx vitest run': {
    file: 'test/vitest/e2e.test.ts',
    runs: ["runVitest(['run', '--root', PROJECT, ...args]"],
    why: 'needs a project with a store; that test runs real Vitest on fixture projects',
  },
  'npx vitest': WATCH_MODE,
  'npx timegrounded compare .timegrounded/reference .timegrounded': {
    file: 'test/vitest/reference.test.ts',
    runs: ["[CLI, 'compare', a, b, '--json', ...more]", "cliCompare(join(output, 'reference'), output"],
    why: "compares the two run folders a Vitest run with a reference store wrote; that test runs it on a fixture project's folders (with --json, to hold compare.json to it)",
  },
  'npx vitest run -u': {
    file: 'test/vitest/e2e.test.ts',
    test: '-u records a baseline; known failures then pass; a newly failing probe and a regressed metric fail',
    runs: ["run(['-u']"],
    why: 'records a baseline of a fixture project',
  },
  'npx vitest run -t replacement-01-q3': {
    file: 'test/vitest/e2e.test.ts',
    test: '-t selects one probe, one episode or one family, and a partial run is not gated',
    runs: ["run(['-t', 'replacement-00-q3']"],
    why: 'a probe filter on a fixture project (smoke split: the same id, episode 00)',
  },
  'npx vitest run -t replacement-01': {
    file: 'test/vitest/e2e.test.ts',
    test: '-t selects one probe, one episode or one family, and a partial run is not gated',
    runs: ["run(['-t', 'reversal-00']"],
    why: 'an episode filter (another episode, smoke split)',
  },
  'npx vitest run -t replacement': {
    file: 'test/vitest/e2e.test.ts',
    test: '-t selects one probe, one episode or one family, and a partial run is not gated',
    runs: ["run(['-t', 'withdrawal']"],
    why: 'a family filter (another family)',
  },
  'npx vitest run --shard=1/2 --reporter=blob': {
    file: 'test/vitest/e2e.test.ts',
    test: 'three partition files sharded 1/2 and 2/2 then merged give exactly the unsharded report and gate decision',
    runs: ["for (const shard of ['1/2', '2/2'])", "`--shard=${shard}`, '--reporter=blob'"],
    why: 'shards a fixture project and merges',
  },
  'npx vitest run --shard=2/2 --reporter=blob': {
    file: 'test/vitest/e2e.test.ts',
    test: 'three partition files sharded 1/2 and 2/2 then merged give exactly the unsharded report and gate decision',
    runs: ["for (const shard of ['1/2', '2/2'])", "`--shard=${shard}`, '--reporter=blob'"],
    why: 'shards a fixture project and merges',
  },
  'npx vitest --merge-reports': {
    file: 'test/vitest/e2e.test.ts',
    test: 'three partition files sharded 1/2 and 2/2 then merged give exactly the unsharded report and gate decision',
    runs: ['`--merge-reports=${blobs}`'],
    why: 'merges the shards above',
  },
  'node scripts/noise-gate.js --runs 100': {
    file: 'test/scripts/noise-gate.test.ts',
    test: '20 seeded CI runs per noise level and repetitions: no probe test fails the correct store on its own (the old rule did), the arrival-order bug fails every run',
    runs: ["['scripts/noise-gate.js', '--runs', '20']"],
    why: 'a hundred runs take about a minute and a half; that test runs the same script with 20 runs and checks the verdicts the docs quote for them',
  },
  'node scripts/timegrounded-power.js': {
    file: 'test/scripts/timegrounded-power.test.ts',
    test: 'prints the interval widths and the share of runs that tell two agents apart',
    runs: ["['scripts/timegrounded-power.js', '--replicates'"],
    why: 'takes about twenty minutes with its defaults (100 replicates up to 2,400 questions); that test runs it with two replicates and checks both tables',
  },
  'TIVARQ_BASE_URL=http://127.0.0.1:8080/v1 TIVARQ_MODEL=qwen2.5-7b-instruct npx timegrounded run --split smoke --adapter model:managed --output out/managed': {
    file: 'test/cli/model-run.test.ts',
    test: 'model:${mode} on smoke: complete, the model and prompts recorded, the tokens add up',
    runs: ["['run', '--split', 'smoke', '--adapter', `model:${mode}`, '--output', out]", 'TIVARQ_BASE_URL: server.baseUrl'],
    why: 'needs a model server; that test runs the built CLI with these variables against a scripted one on 127.0.0.1',
  },
  'npx vitest run --root examples/llm-memory': {
    file: 'test/examples/llm-memory.test.ts',
    test: 'offline, as CI runs it, the committed cassettes are replayed: every smoke probe passes and the model is sent nothing',
    runs: ["runVitest(['run', '--root', 'examples/llm-memory']", "CI: 'true'"],
    why: 'under real Vitest; that test runs exactly this with CI=true and a model server that counts the requests it gets',
  },
  'TIMEGROUNDED_MODEL_CALLS=record OPENAI_API_KEY=sk-your-key npx vitest run --root examples/llm-memory': {
    file: 'test/examples/llm-memory.test.ts',
    test: 'recorded anew against a local server, both suites pass every smoke probe, the tokens add up, and no cassette holds the key',
    runs: ["runVitest(['run', '--root', 'examples/llm-memory']", "TIMEGROUNDED_MODEL_CALLS: 'record'", 'OPENAI_API_KEY: PLANTED_KEY'],
    why: 'needs a real key and would rewrite the committed cassettes; that test records with a planted key against a scripted server on 127.0.0.1 into scratch cassettes',
  },
  'TIMEGROUNDED_MODEL_CALLS=record OPENAI_BASE_URL=http://127.0.0.1:8080/v1 OPENAI_MODEL=qwen2.5-7b-instruct npx vitest run --root examples/llm-memory': {
    file: 'test/examples/llm-memory.test.ts',
    test: 'recorded anew against a local server, both suites pass every smoke probe, the tokens add up, and no cassette holds the key',
    runs: ["runVitest(['run', '--root', 'examples/llm-memory']", 'OPENAI_BASE_URL: server.baseUrl'],
    why: 'needs a model server; that test runs this under real Vitest against a scripted one on 127.0.0.1, into scratch cassettes',
  },
  'npx vitest run --root examples/in-memory': {
    file: 'test/vitest/example.test.ts',
    test: 'the in-memory example passes all 240 dev probes, its thresholds and its committed baseline',
    runs: ["runVitest(['run', '--root', EXAMPLE], { cwd: REPO })", "join(REPO, 'examples/in-memory')"],
    why: '240 probes under real Vitest; that test runs exactly this from the repository root and checks the gate against the committed baseline',
  },
  // On a fixture project, so that the example stays as committed.
  'npx vitest --root examples/in-memory': WATCH_MODE,
  'npx vitest run -u --root examples/in-memory': {
    file: 'test/vitest/e2e.test.ts',
    test: '-u records a baseline; known failures then pass; a newly failing probe and a regressed metric fail',
    runs: ["run(['-u']"],
    why: "would rewrite the example's committed baseline; that test records and rewrites the baseline of a fixture project",
  },
  // Jest (docs/jest.md, the README, examples/jest-memory): the example's test installs from the tarball and runs real Jest.
  'npm i -D ../timegrounded/timegrounded-0.1.0.tgz jest@30.5.2 ts-jest@29.4.15': {
    file: 'test/examples/jest-memory.test.ts',
    runs: ["['install', tarball, `jest@${jest}`, `ts-jest@${tsJest}`", "join(REPO, 'examples/jest-memory')"],
    why: "installs the packed tarball with jest and ts-jest (the versions examples/jest-memory's package.json pins) into a copy of that example",
  },
  'npm install': {
    file: 'test/examples/jest-memory.test.ts',
    runs: ["['install', tarball, `jest@${jest}`, `ts-jest@${tsJest}`, ...rest"],
    why: "examples/jest-memory's install; the test installs the same devDependencies into a copy of the example, with the packed tarball in place of the link to the repository",
  },
  'npx jest': {
    file: 'test/examples/jest-memory.test.ts',
    test: 'npx jest passes all 60 smoke probes, the threshold and the committed baseline, and writes the report',
    runs: ["spawnSync('npx', ['jest'], { cwd: project"],
    why: 'needs a Jest project with a store; that test runs it in a copy of examples/jest-memory installed from the tarball, passing and with a bug',
  },
  'npx timegrounded merge .timegrounded/shards/*.json': {
    file: 'test/vitest/merge-shards.test.ts',
    runs: ["[CLI, 'merge', '--root', PROJECT, ...args]", 'const merged = merge(files)', "for (const shard of ['1/2', '2/2'])"],
    why: 'needs the shard files of a sharded run; that test shards a fixture project under real Vitest and merges the files with the built CLI',
  },
  'npx timegrounded merge -u .timegrounded/shards/*.json': {
    file: 'test/vitest/merge-shards.test.ts',
    test: 'every Vitest shard leaves its file, even one with no timegrounded suite, and the merge scores and gates the set as one run',
    runs: ["merge(['-u', ...files])"],
    why: 'records the baseline from the shard files of that sharded fixture run',
  },
  'npx jest -u': {
    file: 'test/jest/esm.test.ts',
    test: '`jest -u` and `vitest run -u` write the same baseline, report.json and predictions.jsonl; each runner accepts the other’s baseline',
    runs: ["project.jest(['-u'], { ...STALE, TG_BASELINE: 'jest.baseline.json'"],
    why: 'records the baseline of a Jest fixture project installed from the tarball, and Vitest then accepts it',
  },
  'npx jest --watchAll': {
    file: 'test/jest/watch.test.ts',
    test: 'watch mode: a change to the store re-runs and is compared with the previous run; `b` writes the baseline; the written files start no new run',
    runs: ["'node_modules/jest/bin/jest.js', '--watchAll', 'whole'"],
    why: 'watch mode needs a terminal: that test drives real Jest in a pseudo-terminal (a re-run after an edit, the b key)',
  },
  'npx jest -t replacement-00-q3': {
    file: 'test/jest/cjs.test.ts',
    test: '-t replacement-00-q3 runs that one probe, and the store sees only its episode',
    runs: ["project.jest(['whole', '-t', 'replacement-00-q3']"],
    why: 'a probe filter on the CommonJS Jest fixture project; the test also checks the store saw only that episode',
  },
  'NODE_OPTIONS=--experimental-vm-modules npx jest': {
    file: 'test/jest/run-jest.ts',
    runs: ["fixture === 'esm' ? { NODE_OPTIONS: '--experimental-vm-modules', ...env } : env"],
    why: "how test/jest/esm.test.ts runs Jest on its ES module fixture project (the helper sets the flag for the 'esm' fixture)",
  },
  'npx jest --shard=1/2': {
    file: 'test/jest/cjs.test.ts',
    test: '--shard=1/2 and 2/2, then `timegrounded merge`: the same report and baseline as one unsharded run; an incomplete set exits 2',
    runs: ["[1, '--shard=1/2']"],
    why: 'the first shard of the CommonJS fixture project, then merged',
  },
  'npx jest --shard=2/2': {
    file: 'test/jest/cjs.test.ts',
    test: '--shard=1/2 and 2/2, then `timegrounded merge`: the same report and baseline as one unsharded run; an incomplete set exits 2',
    runs: ["[2, '--shard=2/2']"],
    why: 'the second shard of the CommonJS fixture project, then merged',
  },
  'npm run test:unit': {
    file: 'test/tiers.test.ts',
    runs: ["[VITEST, 'list', '--project', name, '--filesOnly', '--json']", "expect(scripts['test:unit']).toBe('vitest run --project unit')"],
    why: 'runs the unit tier, this file among it; that test lists the files Vitest selects for it and checks none needs the build, the tarball, a fixture project or Chromium',
  },
  // docs/memory-libraries.md: the reference rows of its table, run in the installed example projects beside the examples' own suites.
  'npx timegrounded run --split test --adapter builtin:latest --output out/latest': {
    file: 'test/examples/mcp-memory.test.ts',
    test: 'the strict mapping equals builtin:latest on every field of report.json but latency (run by the installed CLI)',
    runs: ["runIn(project, 'npx', ['timegrounded', 'run', '--split', 'test', '--adapter', 'builtin:latest', '--output', 'out/latest'])"],
    why: "run with the CLI of the packed tarball in a copy of examples/mcp-memory, and compared field for field with the MCP store's report",
  },
  'npx timegrounded run --split test --adapter builtin:oracle --output out/oracle': {
    file: 'test/examples/langgraph-store.test.ts',
    test: 'the profile equals builtin:latest and the event log builtin:oracle on every field of report.json but latency',
    runs: ["['langgraph-event-log', 'oracle']", "'--adapter', `builtin:${reference}`, '--output', `out/${reference}`"],
    why: "run with the CLI of the packed tarball in a copy of examples/langgraph-store, and compared field for field with the event log's report",
  },
  'npx vitest run --root examples/sqlite-bitemporal': {
    file: 'test/examples/sqlite-suite.test.ts',
    test: 'the sqlite-bitemporal suite passes every probe under real Vitest and the gate holds',
    runs: ["runVitest(['run', '--root', 'examples/sqlite-bitemporal'], { cwd: REPO"],
    why: '900 probes under real Vitest; that test runs exactly this and checks the gate',
  },
}

interface ByCi {
  /** The `.ci/run` step that runs it (the command itself, or the npm command whose script contains it). */
  step: string
  /** When the step is `npm test`/`npm run X`: the script of package.json that must contain the command. */
  script?: string
}

/** Commands `.ci/run` runs, keyed by the exact text of the docs. */
const BY_CI: Record<string, ByCi> = {
  'npm ci': { step: 'npm ci' },
  'npm test': { step: 'npm test' },
  'npm run test:compat': { step: 'npm run test:compat' },
  'npm run test:compat:examples': { step: 'npm run test:compat:examples' },
  'npm run demo': { step: 'npm run demo' },
  'npm run build': { step: 'npm test', script: 'test' },
}

/** Every documented command, with the file it is in. */
const commands = DOC_FILES.flatMap((file) => documentedCommands(readDoc(file)).map((command) => ({ ...command, file })))

function ciSteps(): string[] {
  return readFileSync(join(REPO, '.ci/run'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
}

/** The source of the test titled `title` (from its title to the next test's), or null when the file has no such test. */
function testBody(source: string, title: string): string | null {
  const call = new RegExp(`\\b(?:test|it)(?:\\.\\w+)?\\(\\s*(['"\`])${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1`)
  const found = call.exec(source)
  if (found === null) return null
  const rest = source.slice(found.index + found[0].length)
  const next = /\b(?:test|it)(?:\.\w+)?\(\s*['"`]/.exec(rest)
  return next === null ? rest : rest.slice(0, next.index)
}

const HOW_TO_COVER =
  'Cover it in test/readme.test.ts: run it for real in RUN_HERE, or name the test file that runs it in COVERED_ELSEWHERE, or the .ci/run step in BY_CI.'

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` before this test (npm test does)')
  work = mkdtempSync(join(tmpdir(), 'timegrounded-readme-'))
  // `timegrounded` on PATH (an adapter command after `--`) and as a package (`import … from 'timegrounded'`), as after `npm i -D timegrounded`.
  mkdirSync(join(work, 'bin'))
  writeFileSync(join(work, 'bin/timegrounded'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`)
  chmodSync(join(work, 'bin/timegrounded'), 0o755)
  env.PATH = `${join(work, 'bin')}${delimiter}${env.PATH ?? ''}`
  mkdirSync(join(work, 'node_modules'))
  symlinkSync(REPO, join(work, 'node_modules/timegrounded'), 'dir')
})

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true })
})

describe('finding the commands', () => {
  test('reads sh blocks line by line, console blocks by prompt, skips comments, joins quoted lines and splits chains', () => {
    const markdown = [
      '```sh',
      'npm ci && npm run demo',
      '# a comment line',
      'npx vitest run          # CI: every probe',
      'node -e "',
      "console.log('#1; a && b')",
      '"',
      '```',
      '```ts',
      'npm run not-a-command',
      '```',
      '  ```console',
      '  $ timegrounded validate',
      '  TIVARQ dataset: valid',
      '',
      '  ```',
      '```',
      'timegrounded probe [--dataset FILE]',
      '$ timegrounded probe --ceiling',
      '```',
    ].join('\n')
    expect(documentedCommands(markdown)).toEqual([
      { command: 'npm ci', line: 2, output: null },
      { command: 'npm run demo', line: 2, output: null },
      { command: 'npx vitest run', line: 4, output: null },
      { command: `node -e "\nconsole.log('#1; a && b')\n"`, line: 5, output: null },
      { command: 'timegrounded validate', line: 13, output: ['TIVARQ dataset: valid'] },
      { command: 'timegrounded probe --ceiling', line: 19, output: [] },
    ])
    expect(words(`node --input-type=module -e "\nimport { a } from 'b'\n'\\n'"`)).toEqual([
      'node',
      '--input-type=module',
      '-e',
      "\nimport { a } from 'b'\n'\\n'",
    ])
  })

  test('the docs have commands, and the coverage tables list no command they no longer have', () => {
    expect(commands.map(({ command }) => command)).toContain('npm test')
    const documented = new Set(commands.map(({ command }) => command))
    const stale = [...Object.keys(RUN_HERE), ...Object.keys(COVERED_ELSEWHERE), ...Object.keys(BY_CI)].filter((command) => !documented.has(command))
    expect(stale, 'these coverage entries name commands no doc has any more; remove them from test/readme.test.ts').toEqual([])
  })
})

describe.sequential('every documented command is covered', () => {
  for (const { command, file, line, output } of commands) {
    test(`${file}:${line} \`${command.split('\n')[0]}${command.includes('\n') ? ' …' : ''}\``, () => {
      const here = RUN_HERE[command]
      const elsewhere = COVERED_ELSEWHERE[command]
      const ci = BY_CI[command]
      if (here !== undefined) {
        here.before?.()
        const ran = sh(command)
        expect(ran.code, explain(command, ran)).toBe(here.exit)
        if (output !== null && output.length > 0) expect(asDocumented(ran.stdout), `the output ${file}:${line} shows`).toEqual(output)
        here.check(ran)
      } else if (elsewhere !== undefined) {
        const path = join(REPO, elsewhere.file)
        expect(existsSync(path), `${elsewhere.file}, which should run \`${command}\`, does not exist`).toBe(true)
        const source = readFileSync(path, 'utf8')
        for (const text of elsewhere.runs)
          expect(source.includes(text), `${elsewhere.file} should run \`${command}\` with ${text}; update COVERED_ELSEWHERE in test/readme.test.ts`).toBe(true)
        if (elsewhere.test !== undefined) {
          const body = testBody(source, elsewhere.test)
          expect(body, `${elsewhere.file} has no test named ${JSON.stringify(elsewhere.test)}, which should run \`${command}\``).not.toBeNull()
          expect(
            body!.includes(elsewhere.runs[0]!),
            `the test ${JSON.stringify(elsewhere.test)} in ${elsewhere.file} should run \`${command}\` with ${elsewhere.runs[0]}`,
          ).toBe(true)
        }
      } else if (ci !== undefined) {
        const steps = ciSteps()
        const step = steps.find((candidate) => candidate === ci.step || candidate.startsWith(`${ci.step} `))
        expect(step, `.ci/run should run \`${ci.step}\` (${file}:${line} documents \`${command}\`); its steps: ${steps.join(' | ')}`).toBeDefined()
        if (ci.script !== undefined) {
          const scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
          expect(scripts[ci.script], `package.json script \`${ci.script}\` (run by \`${ci.step}\` in .ci/run) should run \`${command}\``).toContain(command)
        }
      } else {
        expect.fail(`${file}:${line} documents \`${command}\`, which no test runs. ${HOW_TO_COVER}`)
      }
    })
  }
})
