// The AI SDK path with recorded calls (issue 33): the conversation track's test split recorded once through
// `timegrounded/ai-sdk`'s modelAdapter (hybrid and managed) against a local chat-completions server on 127.0.0.1,
// then replayed from the cassette with the server gone, against builtin:latest on the structured track's test
// split, and beside them an asynchronous store that answers at once (what the harness takes of any
// asynchronous store). Each run is a fresh process, alternating, and times the split alone. Goals: a replay
// within 2× the builtin run; each cassette at most 5 MB.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './samples.js'

const RUN = fileURLToPath(new URL('./fixtures/ai-sdk-split.mjs', import.meta.url))
const ROUNDS = 7

/** A model that answers every extraction "noop" and every question "unknown", as an OpenAI-compatible server. */
function startServer() {
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      const user = body.messages.at(-1).content
      const content = user.includes('"turns"') ? '{"state":"unknown","value":null}' : '{"op":"noop"}'
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          id: 'b',
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
        }),
      )
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

function run(args) {
  const result = spawnSync(process.execPath, [RUN, ...args], { encoding: 'utf8', env: { ...process.env, TIMEGROUNDED_MODEL_CALLS: '', CI: '' } })
  if (result.status !== 0) throw new Error(`ai-sdk-split ${args.join(' ')} failed: ${result.stderr}`)
  const figures = JSON.parse(result.stdout.trim().split('\n').at(-1))
  if (figures.errors > 0) throw new Error(`ai-sdk-split ${args.join(' ')}: ${figures.errors} error rows`)
  return figures
}

const folder = mkdtempSync(join(tmpdir(), 'tg-bench-ai-sdk-'))
try {
  const server = await startServer()
  const baseUrl = `http://127.0.0.1:${server.address().port}/v1`
  const cassettes = { hybrid: join(folder, 'hybrid.jsonl'), managed: join(folder, 'managed.jsonl') }
  // Recorded in a child while this process serves its requests (spawnSync would block the server).
  for (const mode of ['hybrid', 'managed']) {
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [RUN, 'record', mode, cassettes[mode], baseUrl], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, TIMEGROUNDED_MODEL_CALLS: '', CI: '' },
      })
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`recording ${mode} failed`))))
    })
  }
  server.close()
  const times = { builtin: [], floor: [], hybrid: [], managed: [] }
  const starts = { builtin: [], floor: [], hybrid: [], managed: [] }
  const timed = (mode, figures) => {
    times[mode].push(figures.ms)
    starts[mode].push(figures.startMs)
  }
  for (let round = 0; round < ROUNDS; round++) {
    timed('builtin', run(['builtin']))
    timed('floor', run(['async-floor']))
    // The server is closed: a call that is not replayed would fail the run.
    timed('hybrid', run(['replay', 'hybrid', cassettes.hybrid, baseUrl]))
    timed('managed', run(['replay', 'managed', cassettes.managed, baseUrl]))
  }
  const builtin = median(times.builtin)
  console.log(`Node ${process.version}`)
  console.log(`builtin:latest, structured test split: ${builtin.toFixed(1)} ms (median of ${ROUNDS})`)
  // What any asynchronous store pays in the harness, a model's or not: the part of a replay that is not the replay.
  const floor = median(times.floor)
  console.log(`an asynchronous store that answers at once, conversation test split: ${floor.toFixed(1)} ms, ${(floor / builtin).toFixed(2)}× builtin`)
  for (const mode of ['hybrid', 'managed']) {
    const replay = median(times[mode])
    const bytes = statSync(cassettes[mode]).size
    console.log(
      `model:${mode} through the AI SDK, conversation test split replayed: ${replay.toFixed(1)} ms, ${(replay / builtin).toFixed(2)}× builtin (goal ≤ 2×); cassette ${(bytes / 1e6).toFixed(2)} MB (goal ≤ 5 MB)`,
    )
  }
  // What the split's figure leaves out, shown beside it: the SDK's loading, the cassette's reading and the
  // fetch implementation's loading happen once per process, before the first probe.
  const start = (mode) => `${median(starts[mode]).toFixed(0)} ms`
  console.log(`before the split (loading, cassette, pool): builtin ${start('builtin')}, hybrid ${start('hybrid')}, managed ${start('managed')}`)
} finally {
  rmSync(folder, { recursive: true, force: true })
}
