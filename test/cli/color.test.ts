import { describe, expect, test } from 'vitest'
import { wantsColor } from '../../src/cli/color.js'

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
