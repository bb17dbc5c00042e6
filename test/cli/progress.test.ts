// startProgress on a terminal and off one: the real cli-progress bar (loaded
// only for a terminal) shows the counts ticked before it loaded, a bar stopped
// before it loaded draws nothing, and a pipe gets one plain line per step.
import { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect, test } from 'vitest'
import { startProgress } from '../../src/cli/progress.js'

function sink(isTTY: boolean): Writable & { isTTY: boolean; text: () => string } {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk))
      done()
    },
  })
  return Object.assign(stream, { isTTY, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true, text: () => chunks.join('') })
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await sleep(10)
}

test('on a terminal: the bar appears once cli-progress has loaded, with the items already counted', async () => {
  const stream = sink(true)
  const progress = startProgress(10, stream, { label: 'run', unit: 'probes' })
  progress.tick(false)
  progress.tick(true)
  progress.tick(false)
  await until(() => stream.text().includes('3/10'))
  expect(stream.text()).toMatch(/run .* 3\/10 probes \| 1 errors \| /)
  progress.tick(false)
  progress.stop()
  progress.stop()
})

test('on a terminal, stopped before the bar could load: nothing is drawn', async () => {
  const stream = sink(true)
  const progress = startProgress(10, stream, { label: 'run', unit: 'probes' })
  progress.tick(false)
  progress.stop()
  await sleep(200)
  expect(stream.text()).toBe('')
})

test('off a terminal: one plain line every tenth, and at the end', () => {
  const stream = sink(false)
  const progress = startProgress(20, stream, { label: 'run', unit: 'probes' })
  for (let i = 0; i < 20; i++) progress.tick(i === 4)
  progress.stop()
  const lines = stream.text().trim().split('\n')
  expect(lines).toHaveLength(10)
  expect(lines[0]).toBe('run: 2/20 probes (10%), 0 errors')
  expect(lines[2]).toBe('run: 6/20 probes (30%), 1 error')
  expect(lines[9]).toBe('run: 20/20 probes (100%), 1 error')
})
