/**
 * A predictions file read through the one JSON-lines reader: a byte order mark and a row over the line
 * limit named at their line, CRLF endings still read, and a 2 GB file read in bounded memory — measured
 * as the peak resident set of a child process reading it (the reader bundled from the sources).
 */
import { spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, ftruncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PredictionsFileError, readPredictions } from '../../src/harness/predictions.js'

const UPSTREAM = fileURLToPath(new URL('../fixtures/upstream/predictions.jsonl', import.meta.url))
const SOURCE = fileURLToPath(new URL('../../src/harness/predictions.ts', import.meta.url))
const upstream = readFileSync(UPSTREAM, 'utf8')
const upstreamRows = upstream.split('\n').filter((line) => line !== '').length

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'timegrounded-predictions-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function problemsOf(text: string | Buffer): string {
  const file = join(dir, `p-${Math.random().toString(36).slice(2)}.jsonl`)
  writeFileSync(file, text)
  try {
    readPredictions(file)
  } catch (error) {
    expect(error).toBeInstanceOf(PredictionsFileError)
    return (error as Error).message.replaceAll(file, 'p.jsonl')
  }
  return 'read'
}

describe('readPredictions', () => {
  test('a byte order mark is named at line 1 (it used to be "not JSON"), and the row after it is still checked', () => {
    expect(problemsOf(`\uFEFF${upstream}`).split('\n').slice(1)).toEqual([
      '  p.jsonl:1: starts with a byte order mark (U+FEFF); a predictions file is UTF-8 without one — save it without the BOM',
    ])
    expect(problemsOf('\uFEFF{"status": "done"}\n').split('\n').slice(1)).toEqual([
      '  p.jsonl:1: starts with a byte order mark (U+FEFF); a predictions file is UTF-8 without one — save it without the BOM',
      '  p.jsonl:1: status: unknown status "done"; expected one of answered, unsupported, error',
    ])
  })

  test('CRLF endings, as a file written on Windows has them, are read as before', () => {
    const file = join(dir, 'crlf.jsonl')
    writeFileSync(file, upstream.replaceAll('\n', '\r\n'))
    expect(readPredictions(file)).toHaveLength(upstreamRows)
  })

  test('a line that is not UTF-8 is named at its line, the others still read', () => {
    const text = Buffer.concat([Buffer.from(upstream), Buffer.from('{"probe_id": "caf\xe9"}\n', 'latin1')])
    expect(problemsOf(text).split('\n').slice(1)).toEqual([
      `  p.jsonl:${upstreamRows + 1}: not valid UTF-8 (binary data, or text in another encoding); a predictions file is UTF-8 text, one JSON row per line`,
    ])
  })

  test('a 2 GB file (a few rows, then 2 GB on one line) is read in bounded memory and its long line named', async () => {
    const reader = join(dir, 'predictions.mjs')
    await build({ entryPoints: [SOURCE], bundle: true, platform: 'node', format: 'esm', outfile: reader, logLevel: 'error' })
    const big = join(dir, 'big.jsonl')
    writeFileSync(big, upstream)
    // Sparse: the disk holds the rows only; the rest reads as zero bytes, one line with no newline.
    const fd = openSync(big, 'r+')
    ftruncateSync(fd, 2_000_000_000)
    closeSync(fd)
    expect(statSync(big).size).toBe(2_000_000_000)
    const child = `
      const { readPredictions } = await import(${JSON.stringify(reader)})
      let message = 'read'
      try { readPredictions(process.argv[1]) } catch (error) { message = error.message }
      process.stdout.write(JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS, message }))`
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', child, big], { encoding: 'utf8', timeout: 300_000 })
    expect(run.stderr).toBe('')
    const { maxRssKiB, message } = JSON.parse(run.stdout) as { maxRssKiB: number; message: string }
    const longLine = upstreamRows + 1
    expect(message.split('\n').slice(1)).toEqual([
      `  ${big}:${longLine}: line is ${2_000_000_000 - Buffer.byteLength(upstream)} characters, over the 67108864-character limit of a prediction row`,
    ])
    // The line limit (64 Mi characters, all of it held before the line is known to be too long) and Node itself;
    // reading the file whole would take 2 GB.
    expect(maxRssKiB).toBeLessThan(400 * 1024)
  })
})
