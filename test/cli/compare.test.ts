/**
 * `timegrounded compare`, the built CLI as a subprocess, on real runs of the
 * built-in stores written by `timegrounded run` on the dev split. Needs dist/
 * (`npm run build`).
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CLI = join(ROOT, 'dist/cli/main.js')
let work: string
const run = (name: string) => join(work, name)

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' } })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tg-compare-cli-'))
  for (const [name, extra] of [
    ['latest', []],
    ['versioned', []],
    ['hybrid', ['--track', 'conversation']],
  ] as const) {
    const made = cli(['run', '--split', 'dev', '--adapter', `builtin:${name}`, ...extra, '--no-html', '--output', run(name)])
    if (made.status !== 0) throw new Error(`run builtin:${name} failed: ${made.stderr}`)
  }
}, 300_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('timegrounded compare on dev runs of builtin:latest (A) and builtin:versioned (B)', () => {
  test('the report: figures with counts, a verdict line per metric, the probes B fixed, McNemar; exit 0', () => {
    const result = cli(['compare', run('latest'), run('versioned')])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('Same data: split dev, track structured, TIVARQ v1, dataset sha256:')
    expect(result.stdout).toMatch(/│ Current-state accuracy +│ 0\.944444 \(204 of 216\) │ 1 \(232 of 232\) │ {2}0\.056 │ +0\.\d{3} to 0\.\d{3} │ B better/)
    expect(result.stdout).toContain(
      "10000 resamples, seed 20261001 (seedrandom's xor4096 stream); each interval two-sided at 99.83% so that the 6 together hold 99% (Bonferroni, as the gate)",
    )
    expect(result.stdout).toMatch(/^Transition success: (no difference shown \(interval|B better \()/m)
    // b=0, c=12: p = 2·2^-12 = 4.9e-4.
    expect(result.stdout).toContain(
      'Probes: B fixed 12 and broke 0 of 216 compared (24 unsupported on a side, left out). McNemar exact test: p = 4.9e-4 < 0.01',
    )
    expect(result.stdout).toContain('delayed_arrival-01-q4 (delayed_arrival): expected "rich text"; A "markdown", B "rich text"')
  })

  test('--fail-if-worse: exit 1 naming the metric when B is shown worse, 0 when it is not', () => {
    const worse = cli(['compare', run('versioned'), run('latest'), '--fail-if-worse', 'currentStateAccuracy', 'transitionSuccessRate'])
    expect(worse.status).toBe(1)
    expect(worse.stderr).toMatch(
      /^timegrounded compare: B is shown worse on 1 --fail-if-worse metric:\n {2}Current-state accuracy: B worse \(B − A = −0\.056, interval −0\.\d{3} to −0\.\d{3}\)\n$/,
    )
    expect(cli(['compare', run('latest'), run('versioned'), '--fail-if-worse', 'currentStateAccuracy']).status).toBe(0)
  })

  test('--json: the record, with the verdicts and the probes', () => {
    const result = cli(['compare', run('latest'), run('versioned'), '--json', '--metrics', 'currentStateAccuracy', '--resamples', '500', '--seed', '3'])
    expect(result.status).toBe(0)
    const record = JSON.parse(result.stdout)
    expect(record).toMatchObject({ seed: 3, resamples: 500, confidence: 0.99, correction: 'bonferroni', metricLevel: 0.99 })
    expect(record.metrics).toHaveLength(1)
    expect(record.metrics[0]).toMatchObject({
      metric: 'currentStateAccuracy',
      a: { numerator: 204, denominator: 216 },
      b: { numerator: 232, denominator: 232 },
      verdict: 'better',
    })
    expect(record.probes.fixed).toHaveLength(12)
    expect(record.a).toMatchObject({ repetitions: 1, complete: true, errors: 0 })
    expect(record.verdicts[0]).toMatch(/^Current-state accuracy: B better/)
  })
})

describe('--html FILE: the comparison page', () => {
  test('written beside the report, naming where; its data holds the 12 probes B fixed and their episodes', () => {
    const file = join(work, 'pages', 'compare.html')
    const result = cli(['compare', run('latest'), run('versioned'), '--html', file, '--resamples', '500'])
    expect(result.status).toBe(0)
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(`HTML report: ${file}`)
    const page = readFileSync(file, 'utf8')
    const data = JSON.parse(/<script type="application\/json" id="tg-data">(.*?)<\/script>/s.exec(page)![1]!)
    expect(data.runComparison.changes.map((change: { change: string }) => change.change)).toEqual(Array(12).fill('fixed'))
    // Every changed probe's episode is drawn: 4 add_vs_replace, 4 delayed_arrival, 4 retro_correction episodes.
    expect(Object.keys(data.runComparison.episodes)).toHaveLength(12)
    expect(data.runComparison.timelineNote).toBeNull()
    expect(data.identity.map((item: { label: string }) => item.label)).toEqual(['A', 'B', 'data', 'seed', 'resamples', 'harness'])
    expect(data.runComparison.intervalNote).toContain("500 resamples, seed 20261001 (seedrandom's xor4096 stream)")
  })

  test('an empty file name is a usage error', () => {
    const result = cli(['compare', run('latest'), run('versioned'), '--html', ''])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('`--html` needs a file name')
  })
})

describe('refusals and usage: exit 2', () => {
  test('runs of different tracks', () => {
    const result = cli(['compare', run('latest'), run('hybrid')])
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      `timegrounded compare: ${run('latest')} and ${run('hybrid')} were run on different tracks: structured against conversation; a comparison holds only between runs of the same track. Run both stores on the same one (\`timegrounded run --split … --track …\`).\n`,
    )
  })

  test('a missing run, an unknown metric', () => {
    const missing = cli(['compare', run('nowhere'), run('versioned')])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain(`${run('nowhere')}: no such file or folder`)
    const metric = cli(['compare', run('latest'), run('versioned'), '--fail-if-worse', 'transitionSucess'])
    expect(metric.status).toBe(2)
    expect(metric.stderr).toContain('transitionSucess is not a quality metric; choose from transitionSuccessRate,')
    expect(metric.stderr).not.toMatch(/\n\s+at /)
  })

  test('a damaged run manifest is told at its line and column, or by the field that is wrong; nothing is compared', () => {
    const copy = (name: string) => {
      cpSync(run('versioned'), run(name), { recursive: true })
      return join(run(name), 'run_manifest.json')
    }
    const manifest = readFileSync(join(run('versioned'), 'run_manifest.json'), 'utf8')
    const torn = copy('torn-manifest')
    // Cut at the end of a line inside the object: the text ends where a key was due, on that line's last column.
    const kept = manifest.slice(0, manifest.indexOf('\n', 40))
    writeFileSync(torn, kept)
    const lines = kept.split('\n')
    const tornResult = cli(['compare', run('latest'), run('torn-manifest')])
    expect(tornResult.status).toBe(2)
    expect(tornResult.stdout).toBe('')
    expect(tornResult.stderr).toBe(
      `timegrounded compare: ${torn}:${lines.length}:${lines.at(-1)!.length + 1}: not JSON (expected a key in double quotes, found the end of the text); it is not a readable run manifest: restore it, or compare the predictions files alone after moving it away.\n`,
    )
    const variant = copy('odd-variant')
    writeFileSync(variant, JSON.stringify({ ...JSON.parse(manifest), dataset: { variant: { seed: 1 } } }))
    const variantResult = cli(['compare', run('latest'), run('odd-variant')])
    expect(variantResult.status).toBe(2)
    expect(variantResult.stderr).toContain(`${variant}: dataset.variant is not a variant (seed, generator, generator_version, variations); restore it,`)
    expect(variantResult.stderr).not.toMatch(/\n\s+at /)
  })
})
