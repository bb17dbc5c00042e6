/**
 * Reply lines reassembled from many small chunks: a real adapter process
 * (test/fixtures/adapters/trickle-adapter.mjs) echoes each query's question
 * back as its answer's value, writing the line a few hundred bytes at a time,
 * cut anywhere, even inside a multi-byte character or between the CR and LF
 * that end it. The value read back must be the question, character for
 * character. How long a long line takes is printed by bench/adapters.bench.js,
 * not asserted here.
 */
import { fileURLToPath } from 'node:url'
import { afterEach, expect, test } from 'vitest'
import { AdapterProcess } from '../../src/adapters/adapter-process.js'
import { commandAdapter } from '../../src/adapters/command.js'
import { MAX_REPLY_LINE_CHARS } from '../../src/limits.js'

const TRICKLE = fileURLToPath(new URL('../fixtures/adapters/trickle-adapter.mjs', import.meta.url))
const open: AdapterProcess[] = []
afterEach(async () => {
  for (const each of open.splice(0)) await each.close()
})

function start(pieceBytes: number): AdapterProcess {
  const adapter = new AdapterProcess(commandAdapter([process.execPath, TRICKLE, String(pieceBytes)]), 60_000)
  open.push(adapter)
  return adapter
}

/** `count` characters cycling through ASCII, two-, three- and four-byte UTF-8 characters, with JSON escapes among them. */
function mixedText(count: number): string {
  const alphabet = ['a', 'é', '€', '🙂', '"', '\\', 'z', '\t', 'ß', '9']
  let text = ''
  for (let i = 0; i < count; i++) text += alphabet[(i * 7 + (i >> 5)) % alphabet.length]
  return text
}

test('a 2 MB line written 997 bytes at a time comes back whole and exact', async () => {
  const adapter = start(997)
  const question = `start|${mixedText(700_000)}|end`
  const reply = await adapter.call({ type: 'query', question, as_of: '2025-01-01T00:00:00Z' })
  expect(reply.state).toBe('known')
  expect((reply.value as string).length).toBe(question.length)
  expect(reply.value === question).toBe(true)
})

test('several lines in a row, each in 1- to 7-byte pieces, each matched to its own request', async () => {
  for (const piece of [1, 2, 3, 7]) {
    const adapter = start(piece)
    const questions = [`q1 ${mixedText(300)}`, `q2 ${mixedText(1)}`, '', `q4 ${mixedText(2000)}`]
    const replies = await Promise.all(questions.map((question) => adapter.call({ type: 'query', question, as_of: '2025-01-01T00:00:00Z' })))
    expect(replies.map((reply) => reply.value)).toEqual(questions)
  }
})

test('the reply line limit (MAX_REPLY_LINE_CHARS) counts characters, not bytes: a line of a million two-byte characters (2 MB) is read whole', async () => {
  const adapter = start(65_521)
  const question = `${'é'.repeat(1_000_000)}|end`
  expect(Buffer.byteLength(question)).toBeGreaterThan(MAX_REPLY_LINE_CHARS)
  expect(question.length).toBeLessThan(MAX_REPLY_LINE_CHARS - 100)
  const reply = await adapter.call({ type: 'query', question, as_of: '2025-01-01T00:00:00Z' })
  expect(reply.value === question).toBe(true)
  expect(adapter.alive).toBe(true)
})
