/**
 * Seeded fuzzing of everything the harness reads from others: a TIVARQ split
 * (through the validator), a predictions file (through the reader and the
 * scorer) and a LongMemEval file (through both loaders). Every mutation must
 * end in a valid result or the reader's own located error — never another
 * exception, a crash or a hang (the test's timeout is the hang guard). The
 * seed of a failing case is in the assertion message, to replay it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import seedrandom from 'seedrandom'
import { afterAll, expect, test } from 'vitest'
import { PredictionsFileError, parsePredictions } from '../../src/harness/predictions.js'
import { timeGroundedCorpus } from '../../src/time-grounded/corpus/index.js'
import { LongMemEvalDatasetError, loadLongMemEval, parseLongMemEvalText } from '../../src/time-grounded/longmemeval.js'
import { bundledDatasetDir, episodesFileName, probesFileName } from '../../src/tivarq/dataset-files.js'
import { scoreRows } from '../../src/tivarq/score.js'
import { validateDataset } from '../../src/tivarq/validate.js'

const work = mkdtempSync(join(tmpdir(), 'tg-fuzz-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

// Characters a hostile or damaged file is made of: JSON's own, controls, a BOM, a surrogate half, bidi marks, deep brackets.
const PIECES = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ',',
  ':',
  '\\',
  '\n',
  '\r\n',
  '\u0000',
  '\u001b[2J',
  '\ufeff',
  '\ud800',
  '\u202e',
  'null',
  '-1',
  '1e999',
  '[[[[[[[[',
  '"state":"known"',
  '"latency_ms":-3',
]

/** One seeded mutation of `text`: insert, delete, duplicate a line, truncate, or repeat a piece deeply. */
function mutate(text: string, seed: string): string {
  const random = seedrandom(seed)
  const at = (n: number) => Math.floor(random() * n)
  let out = text
  for (let step = 0, steps = 1 + at(3); step < steps; step++) {
    const position = at(out.length + 1)
    switch (at(6)) {
      case 0:
        out = out.slice(0, position) + PIECES[at(PIECES.length)]! + out.slice(position)
        break
      case 1:
        out = out.slice(0, position) + out.slice(position + 1 + at(40))
        break
      case 2: {
        const lines = out.split('\n')
        const line = at(lines.length)
        lines.splice(line, 0, lines[line]!)
        out = lines.join('\n')
        break
      }
      case 3:
        out = out.slice(0, position)
        break
      case 4:
        out = out.slice(0, position) + '['.repeat(1000 + at(50_000)) + out.slice(position)
        break
      default:
        out = out.slice(0, position) + String.fromCharCode(at(0x250)) + out.slice(position)
    }
  }
  return out
}

const DATASET = bundledDatasetDir()
const smokeFiles = ['manifest.json', episodesFileName('smoke'), probesFileName('smoke')].map(
  (name) => [name, readFileSync(join(DATASET, name), 'utf8')] as const,
)

test('200 mutated smoke splits: validate gives a result with located issues, never throws', async () => {
  for (let n = 0; n < 200; n++) {
    const target = n % 3
    const files = new Map(smokeFiles.map(([name, text], i) => [name, i === target ? mutate(text, `dataset-${n}`) : text]))
    const result = await validateDataset(`fuzz ${n}`, { files, splits: ['smoke'] }).catch((error: unknown) => error)
    expect(result, `dataset-${n}`).toHaveProperty('status')
    if ((result as { status: string }).status === 'invalid') {
      for (const issue of (result as { issues: { file: string; message: string }[] }).issues) {
        expect(issue.file, `dataset-${n}`).not.toBe('')
        expect(issue.message, `dataset-${n}`).not.toBe('')
      }
    }
  }
}, 60_000)

const PREDICTIONS = readFileSync(fileURLToPath(new URL('../fixtures/upstream/predictions.jsonl', import.meta.url)), 'utf8')

test('200 mutated predictions files: rows that score, or PredictionsFileError naming file and line', () => {
  for (let n = 0; n < 200; n++) {
    const text = mutate(PREDICTIONS, `predictions-${n}`)
    let rows: ReturnType<typeof parsePredictions>
    try {
      rows = parsePredictions(text, `fuzz-${n}.jsonl`)
    } catch (error) {
      expect(error, `predictions-${n}`).toBeInstanceOf(PredictionsFileError)
      for (const issue of (error as PredictionsFileError).issues) expect(issue.file, `predictions-${n}`).toBe(`fuzz-${n}.jsonl`)
      continue
    }
    expect(() => scoreRows(rows, { seed: 1, resamples: 500 }), `predictions-${n}`).not.toThrow()
  }
}, 60_000)

const CORPUS = JSON.stringify(timeGroundedCorpus().items, null, 1)

test('150 mutated LongMemEval files (30 of them streamed from disk): a dataset, or LongMemEvalDatasetError', async () => {
  for (let n = 0; n < 150; n++) {
    const text = mutate(CORPUS, `longmemeval-${n}`)
    const outcomes: unknown[] = []
    try {
      outcomes.push(parseLongMemEvalText(text, 'fuzz'))
    } catch (error) {
      outcomes.push(error)
    }
    if (n % 5 === 0) {
      const file = join(work, `fuzz-${n}.json`)
      writeFileSync(file, text)
      outcomes.push(await loadLongMemEval(file).catch((error: unknown) => error))
    }
    for (const outcome of outcomes) {
      if (outcome instanceof Error) expect(outcome, `longmemeval-${n}: ${outcome.message}`).toBeInstanceOf(LongMemEvalDatasetError)
      else expect(outcome, `longmemeval-${n}`).toHaveProperty('items')
    }
  }
}, 60_000)
