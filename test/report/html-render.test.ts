/**
 * The HTML report renderer without a browser: what goes into the page (the
 * data round-trips, hostile strings cannot break out of it, the script is the
 * built one and the CSP names it), which figures it carries (the report's own,
 * plus intervals drawn with the report's seed), the known-failure rule, input
 * it refuses, and the page's size on the test split with every probe failing.
 * Real rows throughout: stores run through the real runner and scored.
 * Needs dist/report/html/page.bundle.js (`npm run build`; npm test builds first).
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { MemoryStore, StoreAnswer, StoreQuery } from '../../src/adapters/types.js'
import { inlineJson } from '../../src/report/html/document.js'
import { HtmlReportError } from '../../src/report/html/index.js'
import { pageData, renderHtmlReport, writeHtmlReport } from '../../src/report/html/model/build.js'
import type { HtmlReportInput, TivarqRunInput } from '../../src/report/html/model/input.js'
import { pageIntervals, staleValueLeakageInterval } from '../../src/report/html/model/intervals.js'
import { loadSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { DATASET_SEED, type Probe } from '../../src/tivarq/schema.js'
import { scoreRows } from '../../src/tivarq/score.js'
import { transitionSuccessInterval } from '../../src/tivarq/episode-bootstrap.js'
import { HARNESS_VERSION } from '../../src/version.js'
import { NaiveStore } from '../../examples/naive-store/src/store.js'
import { baselineOf, runStore, timeGroundedSummary } from '../support/html-report-input.js'

/** The JSON the page carries, parsed back. */
function embeddedData(html: string): unknown {
  const match = /<script type="application\/json" id="tg-data">([\s\S]*?)<\/script>/.exec(html)
  if (match === null) throw new Error('no data block in the page')
  return JSON.parse(match[1] as string)
}

/** The inline script the page runs. */
function inlineScript(html: string): string {
  const match = /<script>([\s\S]*)<\/script>\s*<\/body>/.exec(html)
  if (match === null) throw new Error('no page script in the page')
  return match[1] as string
}

function runInput(split: LoadedSplit, rows: PredictionRow[], extra: Partial<TivarqRunInput> = {}): TivarqRunInput {
  return {
    identity: {
      subject: { label: 'store', value: 'test store' },
      data: { name: 'TIVARQ v1', revision: `sha256:${split.manifestSha256}`, split: 'smoke', track: 'structured' },
    },
    report: scoreRows(rows, { seed: DATASET_SEED }),
    rows,
    episodes: split.episodes,
    probes: split.probes,
    ...extra,
  }
}

/** Answers every question with the same value, in its own words too; declares clock and history so every probe is asked. */
class OneAnswerStore implements MemoryStore {
  readonly capabilities = { clock: true, history: true }
  constructor(private readonly answer: StoreAnswer) {}
  reset(): void {}
  ingest(): void {}
  advanceClock(): void {}
  query(_query: StoreQuery): StoreAnswer {
    return { ...this.answer }
  }
}

let smoke: LoadedSplit
let naiveRows: PredictionRow[]
let scratch = ''

beforeAll(async () => {
  smoke = await loadSplit(undefined, 'smoke')
  naiveRows = await runStore(() => new NaiveStore(), smoke)
  scratch = mkdtempSync(join(tmpdir(), 'timegrounded-html-'))
})

afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true })
})

describe('the page', () => {
  test('carries the page data as JSON that parses back to exactly what pageData computed', () => {
    const input: HtmlReportInput = { harnessVersion: HARNESS_VERSION, tivarq: runInput(smoke, naiveRows) }
    const html = renderHtmlReport(input)
    expect(embeddedData(html)).toEqual(JSON.parse(JSON.stringify(pageData(input))))
    expect(html.startsWith('<!doctype html>')).toBe(true)
  })

  test('runs the built page script unchanged, and its CSP allows that script and nothing else', () => {
    const html = renderHtmlReport({ harnessVersion: HARNESS_VERSION, tivarq: runInput(smoke, naiveRows) })
    const built = readFileSync(new URL('../../dist/report/html/page.bundle.js', import.meta.url), 'utf8')
    const script = inlineScript(html)
    // Byte for byte: a template filled with String.replace would have expanded the `$&` the minified code holds.
    expect(script).toBe(built)
    expect(built).toContain('$&')
    const hash = createHash('sha256').update(script, 'utf8').digest('base64')
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]
    expect(csp).toBe(`default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'`)
    // The notices of the bundled code open the script.
    expect(script.startsWith('/*!\nThe timegrounded report page bundles the following third-party code')).toBe(true)
    expect(script).toContain('@observablehq/plot@0.6.17 (ISC)')
  })

  test('inlined JSON holds no `<`, reads back as the value, and is JSON.stringify with each `<` escaped (pages with one and without)', () => {
    const textArb = fc.oneof(fc.string(), fc.constantFrom('</script>', '<!--', 'a<b', '<', ''))
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.array(textArb), fc.dictionary(textArb, textArb)), (value) => {
        const json = inlineJson(value)
        expect(json).not.toContain('<')
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(value)))
        expect(json).toBe(JSON.stringify(value).split('<').join('\\u003c'))
      }),
      { numRuns: 300 },
    )
  })

  test('hostile strings in answers, questions and the title cannot end the data block or the page, and come back intact', async () => {
    const hostile = '</script><script>alert(1)</script><!-- \u2028 $& $1'
    const store = new OneAnswerStore({ state: 'known', value: hostile, rawAnswer: `</SCRIPT>${hostile}` })
    const probes: Probe[] = smoke.probes.map((probe) => ({ ...probe, question: `${probe.question} </script><!--` }))
    const split = { ...smoke, probes }
    const rows = await runStore(store, split)
    const title = '<img src=x onerror="alert(1)"> & </title>'
    const input: HtmlReportInput = { title, harnessVersion: HARNESS_VERSION, tivarq: runInput(split, rows) }
    const html = renderHtmlReport(input)

    // Exactly the page's own two script elements close, and no comment opens.
    expect(html.match(/<\/script/gi)).toHaveLength(2)
    expect(html).not.toContain('<!--')
    expect(html).not.toContain('<img')
    expect(html).toContain('<title>&#60;img src=x onerror=&#34;alert(1)&#34;&#62; &#38; &#60;/title&#62;</title>')

    const data = embeddedData(html) as ReturnType<typeof pageData>
    expect(data.title).toBe(title)
    const failing = data.tivarq?.failing ?? []
    expect(failing).toHaveLength(rows.length)
    expect(failing[0]?.answer).toContain(JSON.stringify(hostile))
    expect(failing[0]?.question).toBe(probes.find((probe) => probe.probe_id === failing[0]?.id)?.question)
  })
})

describe('the figures', () => {
  test('the header names the data (with its revision), the store, the seed, the resamples and the harness version', () => {
    const data = pageData({ harnessVersion: '9.9.9', tivarq: runInput(smoke, naiveRows) })
    expect(data.identity).toEqual([
      {
        label: 'data',
        value: `TIVARQ v1 (sha256:${smoke.manifestSha256.slice(0, 12)}…), smoke split, structured track`,
        title: `sha256:${smoke.manifestSha256}`,
      },
      { label: 'store', value: 'test store' },
      { label: 'seed', value: String(DATASET_SEED) },
      { label: 'resamples', value: '1000' },
      { label: 'harness', value: 'timegrounded 9.9.9' },
    ])
    expect(data.title).toBe('timegrounded report')
  })

  test('values are the report’s; the headline interval is report.json’s; per-family intervals use the report’s seed and resamples', () => {
    const run = runInput(smoke, naiveRows)
    const page = pageData({ harnessVersion: HARNESS_VERSION, tivarq: run }).tivarq!
    const { report } = run
    const [transition, leakage] = page.familyCharts
    expect(page.families).toEqual(Object.keys(report.by_family))
    expect(transition?.points.map((p) => [p.family, p.value, p.cases])).toEqual(
      Object.entries(report.by_family).map(([family, slice]) => [
        family,
        slice.metrics.transition_success_rate.score,
        slice.metrics.transition_success_rate.cases,
      ]),
    )
    expect(leakage?.points.map((p) => p.value)).toEqual(Object.values(report.by_family).map((slice) => slice.metrics.stale_value_leakage_rate.score))

    const intervals = pageIntervals(run.rows, { seed: DATASET_SEED, resamples: 1000 }).byFamily
    for (const point of transition?.points ?? []) {
      const familyRows = run.rows.filter((row) => row.family === point.family)
      const expected = transitionSuccessInterval(familyRows, { seed: DATASET_SEED, resamples: 1000 })
      expect([point.low, point.high]).toEqual([expected.low, expected.high])
      expect([point.low, point.high]).toEqual([intervals.get(point.family)?.transitionSuccess.low, intervals.get(point.family)?.transitionSuccess.high])
    }
    const bootstrap = report.transition_success_bootstrap
    expect(page.cards[0]?.label).toBe('Transition success')
    expect(page.cards[0]?.detail).toBe(`${report.metrics.transition_success_rate.score} (${report.metrics.transition_success_rate.cases} transitions)`)
    expect(page.cards[0]?.interval).toContain(`seed ${bootstrap.seed}; report.json`)
    expect(page.status).toBe('60 probes: 54 answered, 6 unsupported, 0 errors; complete')
  })

  test('the leakage interval: [1, 1] when every stale-risk answer leaks, [0, 0] when none does, none without stale-risk answers; the same seed draws the same', async () => {
    const options = { seed: 7, resamples: 500 }
    // Answering every question with each probe's old value leaks on every stale-risk row; the oracle's gold answers never do.
    const risky = naiveRows.filter((row) => row.old_value !== null)
    const leaking: PredictionRow[] = risky.map(
      (row) => ({ ...row, status: 'answered', prediction: { state: 'known', value: row.old_value }, latency_ms: 0 }) as PredictionRow,
    )
    const right: PredictionRow[] = risky.map((row) => ({ ...row, status: 'answered', prediction: { ...row.expected }, latency_ms: 0 }) as PredictionRow)
    expect(scoreRows(leaking, { seed: 1 }).metrics.stale_value_leakage_rate.score).toBe(1)
    expect(staleValueLeakageInterval(leaking, options)).toMatchObject({ low: 1, high: 1, defined: 500 })
    expect(staleValueLeakageInterval(right, options)).toMatchObject({ low: 0, high: 0 })
    expect(
      staleValueLeakageInterval(
        naiveRows.filter((row) => row.old_value === null),
        options,
      ),
    ).toMatchObject({ low: null, high: null, defined: 0 })
    expect(staleValueLeakageInterval(naiveRows, options)).toEqual(staleValueLeakageInterval(naiveRows, options))
  })

  test('known failures: the reporter’s decisions when given, else a wrong answer that was wrong in the baseline; never an error', async () => {
    const baseline = baselineOf(naiveRows, scoreRows(naiveRows, { seed: 1 }), 'smoke')
    const wrongInBoth = naiveRows.filter((row) => row.status === 'answered' && baseline.probes[row.probe_id] === 'wrong')
    expect(wrongInBoth.length).toBeGreaterThan(0)
    const fromBaseline = pageData({ harnessVersion: HARNESS_VERSION, tivarq: runInput(smoke, naiveRows, { baseline }) }).tivarq!
    expect(fromBaseline.failing.filter((p) => p.kind === 'known_failure').map((p) => p.id)).toEqual(wrongInBoth.map((row) => row.probe_id))
    expect(fromBaseline.kindCounts.known_failure).toBe(wrongInBoth.length)
    // A stale leak stays one underneath.
    expect(fromBaseline.failing.some((p) => p.kind === 'known_failure' && p.outcome === 'stale_leak')).toBe(true)

    const first = wrongInBoth[0]!.probe_id
    const decided = pageData({ harnessVersion: HARNESS_VERSION, tivarq: runInput(smoke, naiveRows, { baseline, decisions: { [first]: 'known_failure' } }) })
      .tivarq!
    expect(decided.failing.filter((p) => p.kind === 'known_failure').map((p) => p.id)).toEqual([first])

    // An error row is an error, whatever the baseline or the decisions say.
    const errored: PredictionRow[] = naiveRows.map((row) =>
      row.probe_id === first ? { ...row, status: 'error', error: 'query: boom', prediction: undefined, latency_ms: undefined } : row,
    ) as PredictionRow[]
    const withError = pageData({ harnessVersion: HARNESS_VERSION, tivarq: runInput(smoke, errored, { baseline, decisions: { [first]: 'known_failure' } }) })
      .tivarq!
    expect(withError.failing.find((p) => p.id === first)).toMatchObject({
      kind: 'error',
      answer: 'error: query: boom',
      meaning: 'the store failed: query: boom',
    })
    expect(withError.complete).toBe(false)
    expect(withError.status).toContain('INCOMPLETE')
  })

  test('the baseline beside the run: every metric it recorded, overall and per family, each move with its direction', () => {
    const lapsing = naiveRows.map((row, i) =>
      i % 5 === 0 && row.status === 'answered' ? { ...row, prediction: { state: 'unknown', value: null } } : row,
    ) as PredictionRow[]
    const baseline = baselineOf(naiveRows, scoreRows(naiveRows, { seed: 1 }), 'smoke')
    const page = pageData({ harnessVersion: HARNESS_VERSION, tivarq: runInput(smoke, lapsing, { baseline }) }).tivarq!
    const comparison = page.comparison!
    expect(comparison.columns).toEqual(['all families', ...page.families])
    expect(comparison.metrics).toHaveLength(Object.keys(baseline.metrics).length)
    const overall = comparison.cells.find((cell) => cell.metric === 'Transition success' && cell.column === 'all families')!
    expect(overall).toMatchObject({
      before: baseline.metrics.transitionSuccessRate?.value,
      after: scoreRows(lapsing, { seed: 1 }).metrics.transition_success_rate.score,
      change: 'worse',
    })
    expect(page.cards[0]?.baseline?.change).toBe('worse')
    expect(comparison.summary).toMatch(/^Of \d+ metric values: \d+ better, [1-9]\d* worse/)

    const same = pageData({ harnessVersion: HARNESS_VERSION, tivarq: runInput(smoke, naiveRows, { baseline }) }).tivarq!
    expect(same.comparison?.cells.every((cell) => cell.change === 'same')).toBe(true)
    expect(pageData({ harnessVersion: HARNESS_VERSION, tivarq: runInput(smoke, naiveRows) }).tivarq?.comparison).toBeNull()
  })

  test('a failing probe carries its question, checkpoint, both answers, its meaning and the events holding the returned value', () => {
    const page = pageData({ harnessVersion: HARNESS_VERSION, tivarq: runInput(smoke, naiveRows) }).tivarq!
    const leak = page.failing.find((p) => p.outcome === 'stale_leak')!
    const probe = smoke.probes.find((p) => p.probe_id === leak.id)!
    const row = naiveRows.find((r) => r.probe_id === leak.id)!
    expect(leak).toMatchObject({ question: probe.question, asOf: probe.as_of, afterEvent: probe.after_event_index })
    expect(leak.meaning).toMatch(/^stale value leaked: returned /)
    const episode = page.episodes[leak.episode]!
    expect(episode.events).toHaveLength(smoke.episodes.find((e) => e.episode_id === leak.episode)!.events.length)
    expect(leak.sources.length).toBeGreaterThan(0)
    const returned = row.status === 'answered' ? row.prediction.value : null
    for (const index of leak.sources) expect(episode.events[index]?.assertion).toContain(JSON.stringify(returned))
    // Only episodes with a failing probe travel.
    expect(Object.keys(page.episodes).sort()).toEqual([...new Set(page.failing.map((p) => p.episode))].sort())
  })
})

describe('input', () => {
  test('a time-grounded suite alone makes a page', async () => {
    const suites = await timeGroundedSummary()
    const data = pageData({ harnessVersion: HARNESS_VERSION, timeGrounded: suites })
    expect(data.tivarq).toBeNull()
    expect(data.timeGrounded[0]?.arms.map((arm) => [arm.arm, arm.correct, arm.questions])).toEqual([
      ['control', suites[0]!.control.correct, 12],
      ['probe', suites[0]!.probe.correct, 12],
      ['ceiling', suites[0]!.ceiling!.correct, 12],
    ])
    expect(data.timeGrounded[0]?.delta).toEqual(suites[0]!.delta)
    expect(data.timeGrounded[0]?.verdict).toBe(suites[0]!.verdict?.text)
  })

  test('refused with HTML_REPORT_INPUT_INVALID: nothing to show, or rows that are not the report’s', () => {
    const refusal = (input: HtmlReportInput) => {
      try {
        renderHtmlReport(input)
      } catch (error) {
        return error
      }
      throw new Error('not refused')
    }
    const empty = refusal({ harnessVersion: HARNESS_VERSION })
    expect(empty).toBeInstanceOf(HtmlReportError)
    expect(empty).toMatchObject({ code: 'HTML_REPORT_INPUT_INVALID', message: expect.stringContaining('pass `tivarq`') })
    const run = runInput(smoke, naiveRows)
    expect(refusal({ harnessVersion: HARNESS_VERSION, tivarq: { ...run, rows: naiveRows.slice(1) } })).toMatchObject({
      code: 'HTML_REPORT_INPUT_INVALID',
      message: '`tivarq.rows` holds 59 rows but `tivarq.report` was scored from 60; pass the rows the report was scored from (scoreRows(rows, …)).',
    })
  })

  test('writeHtmlReport creates the directory and writes the page', () => {
    const input: HtmlReportInput = { harnessVersion: HARNESS_VERSION, tivarq: runInput(smoke, naiveRows) }
    const path = writeHtmlReport(join(scratch, 'nested', 'dir', 'report.html'), input)
    expect(path).toBe(join(scratch, 'nested', 'dir', 'report.html'))
    expect(readFileSync(path, 'utf8')).toBe(renderHtmlReport(input))
  })
})

test('size: the test split with every one of its 900 probes failing stays under 1.5 MB', async () => {
  const split = await loadSplit(undefined, 'test')
  // A wrong answer everywhere, and 400 characters of the store's own words (the page keeps 160).
  const rows = await runStore(
    new OneAnswerStore({ state: 'known', value: 'a value nobody stated', rawAnswer: 'I believe it is a value nobody stated. '.repeat(10) }),
    split,
  )
  const input: HtmlReportInput = {
    harnessVersion: HARNESS_VERSION,
    tivarq: {
      ...runInput(split, rows),
      repetitions: [scoreRows(rows, { seed: 1 }), scoreRows(rows, { seed: 2 })],
      baseline: baselineOf(rows, scoreRows(rows, { seed: 1 }), 'test'),
    },
    timeGrounded: await timeGroundedSummary(),
  }
  const html = renderHtmlReport(input)
  const data = embeddedData(html) as ReturnType<typeof pageData>
  expect(data.tivarq?.failing).toHaveLength(900)
  expect(Object.keys(data.tivarq?.episodes ?? {})).toHaveLength(180)
  const bytes = Buffer.byteLength(html)
  console.log(`report.html, test split, all 900 probes failing: ${(bytes / 1024).toFixed(0)} KiB (${bytes} bytes; limit 1.5 MB)`)
  expect(bytes).toBeLessThan(1.5 * 1024 * 1024)
})
