import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { wantsColor } from '../../src/cli/color.js'
import { findTerminal } from '../support/terminal.js'

describe('wantsColor', () => {
  test('on a terminal only, and never with --no-color or NO_COLOR', () => {
    expect(wantsColor(undefined, { isTTY: true }, {})).toBe(true)
    expect(wantsColor(true, { isTTY: true }, {})).toBe(true)
    expect(wantsColor(undefined, { isTTY: false }, {})).toBe(false)
    expect(wantsColor(undefined, {}, {})).toBe(false)
    expect(wantsColor(false, { isTTY: true }, {})).toBe(false)
    // NO_COLOR counts whatever its value, even empty.
    expect(wantsColor(undefined, { isTTY: true }, { NO_COLOR: '' })).toBe(false)
    expect(wantsColor(undefined, { isTTY: true }, { NO_COLOR: '1' })).toBe(false)
  })
})

// The built CLI bundles chalk without its colour detection (scripts/build-cli.js): every
// colour decision is wantsColor's, so on a terminal the summary is still coloured.
describe('the built CLI on a terminal', () => {
  const terminal = findTerminal()
  const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
  const summary = (env: NodeJS.ProcessEnv) => {
    if (terminal.kind !== 'ready') throw new Error(terminal.reason)
    const output = mkdtempSync(join(tmpdir(), 'tg-color-'))
    try {
      const [command, ...args] = terminal.argv([
        process.execPath,
        CLI,
        'run',
        '--split',
        'smoke',
        '--adapter',
        'builtin:latest',
        '--no-html',
        '--output',
        output,
      ]) as [string, ...string[]]
      const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 })
      expect(result.status).toBe(0)
      return result.stdout
    } finally {
      rmSync(output, { recursive: true, force: true })
    }
  }

  test('colours the summary (bold headline figures)', () => {
    const text = summary({ NO_COLOR: undefined })
    expect(text).toContain('Transition success')
    expect(text).toContain('\u001b[1m')
  })

  test('with NO_COLOR set: no colour codes', () => {
    const text = summary({ NO_COLOR: '1' })
    expect(text).toContain('Transition success')
    expect(text).not.toContain('\u001b[1m')
  })
})
