/**
 * Credentials in an endpoint's configuration never reach a result file or the
 * terminal: a base URL carrying a user name, password or key is refused at
 * start-up (naming where the key belongs), the request URL puts
 * `/chat/completions` in the path (a query stays after it), and a configured
 * API key a server echoes back is masked in every recorded error. A real
 * OpenAI-compatible server on 127.0.0.1 and the built CLI (`npm run build`).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ChatEndpointError, chatCompletion } from '../../src/chat/client.js'
import { startChatServer, type ChatServer } from '../support/chat-server.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CLI = join(ROOT, 'dist/cli/main.js')
const KEY = 'sk-planted-3f9a7c'
let work: string
let server: ChatServer

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` before this test (npm test does)')
  work = mkdtempSync(join(tmpdir(), 'tg-secrets-'))
  // Refuses every call, quoting the key it was sent, as some servers do.
  server = await startChatServer((request) => ({ status: 401, body: `invalid api key: ${request.authorization ?? 'none'}` }))
})
afterAll(async () => {
  await server.close()
  rmSync(work, { recursive: true, force: true })
})

function cli(args: string[], variables: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' }
  for (const key of Object.keys(env)) if (key.startsWith('TIVARQ_') || key.startsWith('TIMEGROUNDED_')) delete env[key]
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: work, env: { ...env, ...variables }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

/** Every file under `dir`, read as text, joined. */
function allText(dir: string): string {
  if (!existsSync(dir)) return ''
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n')
}

describe('the chat client', () => {
  test('/chat/completions goes into the path; a query stays after it', async () => {
    const before = server.requests.length
    await expect(
      chatCompletion({ baseUrl: `${server.baseUrl}?api-version=2024-06-01`, model: 'm', retries: 0 }, [{ role: 'user', content: 'hi' }]),
    ).rejects.toThrow(ChatEndpointError)
    expect(server.requests.slice(before).map((request) => request.path)).toEqual(['/v1/chat/completions?api-version=2024-06-01'])
  })

  test('a key the server echoes and the query values are masked in the error', async () => {
    const error = await chatCompletion({ baseUrl: `${server.baseUrl}?api-version=2024-06-01`, model: 'm', apiKey: KEY, retries: 0 }, [
      { role: 'user', content: 'hi' },
    ]).then(
      () => null,
      (caught: unknown) => caught as ChatEndpointError,
    )
    if (error === null) throw new Error('the call should have failed')
    expect(error).toBeInstanceOf(ChatEndpointError)
    expect(error.message).not.toContain(KEY)
    expect(error.message).not.toContain('2024-06-01')
    expect(error.message).toContain('invalid api key: Bearer ***')
    expect(error.url).toBe(`${server.baseUrl}/chat/completions?api-version=***`)
  })
})

describe('run --adapter model:managed', () => {
  for (const [label, baseUrl, carried] of [
    ['a key in the query', () => `${server.baseUrl}?api_key=${KEY}`, 'the query parameter `api_key`'],
    ['user:pass@', () => server.baseUrl.replace('http://', `http://admin:${KEY}@`), 'a user name or password'],
  ] as const) {
    test(`TIVARQ_BASE_URL with ${label}: refused at start-up (exit 2), naming TIVARQ_API_KEY, the secret printed nowhere`, async () => {
      const out = join(work, label.replace(/\W+/g, '-'))
      const before = server.requests.length
      const ran = await cli(['run', '--split', 'smoke', '--adapter', 'model:managed', '--output', out], { TIVARQ_BASE_URL: baseUrl(), TIVARQ_MODEL: 'm' })
      expect(ran.code).toBe(2)
      expect(ran.output).toContain(`\`TIVARQ_BASE_URL\``)
      expect(ran.output).toContain(carried)
      expect(ran.output).toContain('put the key in `TIVARQ_API_KEY`')
      expect(ran.output).not.toContain(KEY)
      expect(allText(out)).not.toContain(KEY)
      expect(server.requests.length).toBe(before)
    })
  }

  test('a configured key the server echoes in its errors: masked in predictions.jsonl, report.html and the terminal', async () => {
    const out = join(work, 'echo')
    const ran = await cli(['run', '--split', 'smoke', '--adapter', 'model:managed', '--output', out], {
      TIVARQ_BASE_URL: server.baseUrl,
      TIVARQ_MODEL: 'm',
      TIVARQ_API_KEY: KEY,
    })
    expect(ran.code).toBe(1)
    const predictions = readFileSync(join(out, 'predictions.jsonl'), 'utf8')
    expect(predictions).toContain('invalid api key: Bearer ***')
    expect(ran.output + allText(out)).not.toContain(KEY)
  })
})

test('probe --agent-base-url with a key in the query: exit 2 naming TIMEGROUNDED_AGENT_API_KEY; the key printed nowhere', async () => {
  const ran = await cli(
    ['probe', '--agent', 'builtin:llm', '--agent-model', 'm', '--agent-base-url', `${server.baseUrl}?token=${KEY}`, '--json', '--no-html'],
    {},
  )
  expect(ran.code).toBe(2)
  expect(ran.output).toContain('`--agent-base-url`')
  expect(ran.output).toContain('TIMEGROUNDED_AGENT_API_KEY')
  expect(ran.output).not.toContain(KEY)
})
