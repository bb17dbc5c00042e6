/**
 * `timegrounded run --adapter model:hybrid|model:managed`: the built CLI as a
 * subprocess, configured by the upstream environment variables, against a
 * scripted OpenAI-compatible server on 127.0.0.1 in this process (so the CLI
 * is spawned asynchronously). The run completes, the manifest records the
 * model and the prompts' fingerprint (never the key), and report.json adds
 * up to the tokens the server reported. `npm test` builds dist/ first.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chatCallBudgetMs } from '../../src/chat/client.js'
import { promptFingerprint } from '../../src/adapters/models/prompts.js'
import { TIVARQ_V1_SLOTS } from '../../src/adapters/models/config.js'
import { loadSplit } from '../../src/tivarq/dataset.js'
import { startChatServer, type ChatServer } from '../support/chat-server.js'
import { tivarqModel } from '../support/tivarq-model.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CLI = join(ROOT, 'dist/cli/main.js')
let work: string
let server: ChatServer

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` before this test (npm test does)')
  work = mkdtempSync(join(tmpdir(), 'tg-model-cli-'))
  const { episodes } = await loadSplit(undefined, 'smoke')
  server = await startChatServer(tivarqModel(episodes, { kind: 'correct' }))
})
afterAll(async () => {
  await server.close()
  rmSync(work, { recursive: true, force: true })
})

interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/** The CLI with exactly these TIVARQ_* variables (none inherited); asynchronous, so the server here can answer it. */
function cli(args: string[], variables: Record<string, string>): Promise<Ran> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' }
  for (const key of Object.keys(env)) if (key.startsWith('TIVARQ_')) delete env[key]
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: work, env: { ...env, ...variables }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'))

describe('run --adapter model:MODE against a local server', () => {
  for (const mode of ['managed', 'hybrid'] as const) {
    test(`model:${mode} on smoke: complete, the model and prompts recorded, the tokens add up`, async () => {
      const before = { prompt: server.reported.prompt_tokens, completion: server.reported.completion_tokens, requests: server.requests.length }
      const out = join(work, mode)
      const variables = { TIVARQ_BASE_URL: server.baseUrl, TIVARQ_MODEL: 'scripted-correct', TIVARQ_API_KEY: 'sk-local-test', TIVARQ_TEMPERATURE: '0' }
      const ran = await cli(['run', '--split', 'smoke', '--adapter', `model:${mode}`, '--output', out], variables)
      expect(ran.stdout).toContain('60 probes: 60 answered, 0 unsupported, 0 errors; complete')
      expect(ran.code).toBe(0)

      const manifest = json(join(out, 'run_manifest.json'))
      expect(manifest.track).toBe('conversation')
      // Recorded as upstream records them: strings (here the adapter's settings as JSON text).
      expect(typeof manifest.model_config).toBe('string')
      expect(JSON.parse(manifest.model_config)).toMatchObject({
        api: 'openai-chat-completions',
        base_url: server.baseUrl,
        model: 'scripted-correct',
        temperature: 0,
        api_key_set: true,
      })
      expect(JSON.parse(manifest.prompt_config)).toMatchObject({
        version: 'timegrounded-model-prompts-v1',
        mode,
        fingerprint: promptFingerprint(mode, TIVARQ_V1_SLOTS),
      })
      expect(JSON.stringify(manifest)).not.toContain('sk-local-test')
      expect(JSON.stringify(manifest)).toContain('tivarq-model-v1')
      // A model call may retry for longer than an adapter call's default timeout: the store call gets the whole budget.
      expect(JSON.stringify(manifest)).toContain(`"timeout_ms":${chatCallBudgetMs({})}`)

      const spent = { prompt: server.reported.prompt_tokens - before.prompt, completion: server.reported.completion_tokens - before.completion }
      expect(json(join(out, 'report.json')).metrics.reported_tokens).toEqual({ ...spent, cases_with_usage: 60 })
      // No cassette: every call the server answered was a live one, and report.json says so.
      expect(json(join(out, 'report.json')).model_calls).toEqual({ replayed: 0, recorded: 0, live: server.requests.length - before.requests })
      expect(ran.stdout).toContain(`Reported usage`)
      expect(ran.stdout).toContain(`${spent.prompt} prompt + ${spent.completion} completion tokens (60 cases)`)
      expect(server.requests.slice(before.requests).every((request) => request.authorization === 'Bearer sk-local-test')).toBe(true)
    })
  }

  test('--model-config and --prompt-config override what the adapter declares', async () => {
    const out = join(work, 'override')
    const ran = await cli(
      ['run', '--split', 'smoke', '--adapter', 'model:managed', '--output', out, '--model-config', '{"note":"mine"}', '--prompt-config', 'v2'],
      {
        TIVARQ_BASE_URL: server.baseUrl,
        TIVARQ_MODEL: 'm',
      },
    )
    expect(ran.code).toBe(0)
    expect(json(join(out, 'run_manifest.json'))).toMatchObject({ model_config: '{"note":"mine"}', prompt_config: 'v2' })
  })
})

describe('run --adapter model:MODE refuses what cannot work, before any call', () => {
  test('no base URL and no model: exit 2, naming both variables', async () => {
    const ran = await cli(['run', '--split', 'smoke', '--adapter', 'model:hybrid', '--output', join(work, 'none')], {})
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain('timegrounded run: the model adapter is not configured:')
    expect(ran.stderr).toContain('`baseUrl` is missing: set TIVARQ_BASE_URL (e.g. TIVARQ_BASE_URL=http://127.0.0.1:8080/v1)')
    expect(ran.stderr).toContain('`model` is missing: set TIVARQ_MODEL')
  })

  test('a bad TIVARQ_TEMPERATURE: exit 2, naming it', async () => {
    const ran = await cli(['run', '--split', 'smoke', '--adapter', 'model:managed', '--output', join(work, 'warm')], {
      TIVARQ_BASE_URL: server.baseUrl,
      TIVARQ_MODEL: 'm',
      TIVARQ_TEMPERATURE: 'warm',
    })
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain('`TIVARQ_TEMPERATURE` is "warm"; expected a number from 0 to 2')
  })

  test('the structured track, or a mode that does not exist: exit 2', async () => {
    const structured = await cli(['run', '--split', 'smoke', '--adapter', 'model:managed', '--track', 'structured', '--output', join(work, 's')], {})
    expect(structured.code).toBe(2)
    expect(structured.stderr).toContain('`model:managed` runs the conversation track only')
    const unknown = await cli(['run', '--split', 'smoke', '--adapter', 'model:oracle', '--output', join(work, 'o')], {})
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain(
      "option '--adapter <NAME>' argument 'model:oracle' is invalid. not a model adapter; expected model:hybrid or model:managed.",
    )
  })
})
