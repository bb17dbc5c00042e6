/**
 * Several processes recording into one cassette at once, as Vitest's or
 * Jest's workers and a CI job's shards do: real Node processes, each running
 * the cassette module (bundled from the sources for them), recording calls
 * and merging into the file under its lock many times over; one of them is
 * killed before it merges. Nothing recorded is lost, the file is whole, and
 * no lock, temporary or side file is left behind.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readCassette } from '../../src/cassette/file.js'

const SOURCE = fileURLToPath(new URL('../../src/cassette/cassette.ts', import.meta.url))
let folder: string

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'tg-recorders-'))
  buildSync({ entryPoints: [SOURCE], bundle: true, platform: 'node', format: 'esm', outfile: join(folder, 'cassette.mjs'), logLevel: 'silent' })
  // A recorder: `count` calls named by its tag, merged every `every` calls; `hold` leaves it running, unmerged, until killed.
  writeFileSync(
    join(folder, 'recorder.mjs'),
    `import { openCassette } from './cassette.mjs'
const [file, tag, count, every, hold] = process.argv.slice(2)
const cassette = openCassette(file, { mode: 'record' })
for (let i = 0; i < Number(count); i++) {
  const request = { provider: 'p', model: 'm', messages: [{ role: 'user', content: tag + '-' + i }], tools: [], settings: {} }
  await cassette.call({ request, probe: tag + '/' + i, live: async () => ({ content: [{ type: 'text', text: 'answer ' + tag + '-' + i }], finish_reason: { unified: 'stop', raw: null }, usage: { input_tokens: 1, output_tokens: 1, cache_read_tokens: null, cache_write_tokens: null, reasoning_tokens: null } }) })
  if (hold !== 'hold' && (i + 1) % Number(every) === 0) cassette.flush()
}
if (hold === 'hold') { process.stdout.write('recorded\\n'); setInterval(() => {}, 1000) }
`,
  )
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

function run(args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(folder, 'recorder.mjs'), ...args], { env, stdio: ['ignore', 'ignore', 'inherit'] })
    child.on('exit', (code) => resolve(code))
  })
}

test('two workers and a killed one recording into one cassette lose nothing, and leave only the cassette', async () => {
  const cassette = join(folder, 'calls.jsonl')
  const env = { ...process.env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'run-1', TIMEGROUNDED_MODEL_CALLS: '' }

  // The killed worker: it records, is killed before any merge, and only its side file has its calls.
  const killed = spawn(process.execPath, [join(folder, 'recorder.mjs'), cassette, 'killed', '25', '1', 'hold'], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve) => killed.stdout.once('data', () => resolve()))
  killed.kill('SIGKILL')
  await new Promise((resolve) => killed.on('exit', resolve))

  const codes = await Promise.all([run([cassette, 'a', '150', '7'], env), run([cassette, 'b', '150', '5'], env)])
  expect(codes).toEqual([0, 0])

  const entries = readCassette(cassette, true) ?? []
  const probes = new Set(entries.map((entry) => entry.probe))
  expect(probes.size).toBe(325)
  for (const tag of ['a', 'b']) for (let i = 0; i < 150; i++) expect(probes.has(`${tag}/${i}`)).toBe(true)
  for (let i = 0; i < 25; i++) expect(probes.has(`killed/${i}`)).toBe(true)
  expect(readdirSync(folder).sort()).toEqual(['calls.jsonl', 'cassette.mjs', 'recorder.mjs'])

  // The next session re-records only a's calls: b's and the killed worker's are dropped, as nobody asked for them.
  expect(await run([cassette, 'a', '150', '50'], { ...env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'run-2' })).toBe(0)
  const rerecorded = readCassette(cassette, true) ?? []
  expect(rerecorded.map((entry) => entry.probe?.split('/')[0])).toEqual(Array(150).fill('a'))
})
