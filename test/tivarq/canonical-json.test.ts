import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CanonicalJsonError, canonicalJsonLine, compareCodePoints, prettyJson, pythonFloatRepr } from '../../src/tivarq/canonical-json.js'

const FIXTURES = new URL('../../fixtures/tivarq-v1/', import.meta.url)

// A value that exercises every escaping and ordering rule: C0 controls, DEL,
// U+2028/U+2029, non-ASCII, an astral key that UTF-16 order would misplace,
// and empty containers.
const TRICKY = {
  b: 'a\u2028b\u2029\x7f\x00\x1f"\\\n\t\r\b\f/é😀',
  a: [],
  '\u{1F600}': {},
  '\uffff': 1,
  A: [1, { z: null, y: true, x: false }],
  é: 'x',
}

// Reference strings produced by CPython 3.11.2 on this machine:
//   json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(',', ':'))
//   json.dumps(v, sort_keys=True, indent=2)                      (ensure_ascii default True)
//   json.dumps(v, sort_keys=True, indent=2, ensure_ascii=False)
// where v is TRICKY written as a Python literal.
const PY_COMPACT =
  '{"A":[1,{"x":false,"y":true,"z":null}],"a":[],"b":"a\u2028b\u2029\u007f\\u0000\\u001f\\"\\\\\\n\\t\\r\\b\\f/\u00e9\ud83d\ude00","\u00e9":"x","\uffff":1,"\ud83d\ude00":{}}'
const PY_PRETTY_ASCII =
  '{\n  "A": [\n    1,\n    {\n      "x": false,\n      "y": true,\n      "z": null\n    }\n  ],\n  "a": [],\n  "b": "a\\u2028b\\u2029\\u007f\\u0000\\u001f\\"\\\\\\n\\t\\r\\b\\f/\\u00e9\\ud83d\\ude00",\n  "\\u00e9": "x",\n  "\\uffff": 1,\n  "\\ud83d\\ude00": {}\n}'
const PY_PRETTY_UNICODE =
  '{\n  "A": [\n    1,\n    {\n      "x": false,\n      "y": true,\n      "z": null\n    }\n  ],\n  "a": [],\n  "b": "a\u2028b\u2029\u007f\\u0000\\u001f\\"\\\\\\n\\t\\r\\b\\f/\u00e9\ud83d\ude00",\n  "\u00e9": "x",\n  "\uffff": 1,\n  "\ud83d\ude00": {}\n}'
// CPython 3.11.2: json.dumps({"x": [[], {}], "y": {"z": []}}, indent=2, sort_keys=True)
const PY_PRETTY_EMPTIES = '{\n  "x": [\n    [],\n    {}\n  ],\n  "y": {\n    "z": []\n  }\n}'
// CPython 3.11.2: json.dumps([0.1, 1e16, 1e-7, 123.456, 1e22, 2.5e-05, 0.0001, 12345678901234567.0, 1.5,
//   -2.75e-300, 5e-324, 1.7976931348623157e308, 0.30000000000000004, 123456789012345.6, 1e15 + 0.5], separators=(',', ':'))
// biome-ignore-start lint/correctness/noPrecisionLoss: these literals are the inputs Python prints; rounding them is the point of the test.
const FLOATS = [
  0.1,
  1e16,
  1e-7,
  123.456,
  1e22,
  2.5e-5,
  0.0001,
  12345678901234567,
  1.5,
  -2.75e-300,
  5e-324,
  1.7976931348623157e308,
  0.30000000000000004,
  123456789012345.6,
  1e15 + 0.5,
]
// biome-ignore-end lint/correctness/noPrecisionLoss: end of the inputs.
const PY_FLOATS =
  '[0.1,1e+16,1e-07,123.456,1e+22,2.5e-05,0.0001,1.2345678901234568e+16,1.5,-2.75e-300,5e-324,1.7976931348623157e+308,0.30000000000000004,123456789012345.6,1000000000000000.5]'

describe('canonicalJsonLine', () => {
  it('matches Python json.dumps(sort_keys, ensure_ascii=False, compact separators) on escapes and key order', () => {
    expect(canonicalJsonLine(TRICKY)).toBe(PY_COMPACT)
  })

  it('writes non-integral and unsafe numbers as Python float repr, safe integers as integers', () => {
    expect(canonicalJsonLine(FLOATS)).toBe(PY_FLOATS)
    expect(canonicalJsonLine([0, -0, 7, -12, 20261001, 10n ** 30n])).toBe('[0,0,7,-12,20261001,1000000000000000000000000000000]')
    expect(pythonFloatRepr(-0)).toBe('-0.0')
  })

  it('re-serialises every published row to its exact line', () => {
    let lines = 0
    for (const name of ['episodes_smoke', 'episodes_dev', 'episodes_test', 'probes_smoke', 'probes_dev', 'probes_test']) {
      const text = readFileSync(new URL(`${name}.jsonl`, FIXTURES), 'utf8')
      for (const line of text.split('\n').filter((row) => row.length > 0)) {
        expect(canonicalJsonLine(JSON.parse(line))).toBe(line)
        lines++
      }
    }
    expect(lines).toBe(240 + 1200)
  })

  it('omits members whose value is undefined (optional fields left unset)', () => {
    expect(canonicalJsonLine({ b: 1, a: undefined, c: [undefined] })).toBe('{"b":1,"c":[null]}')
  })

  it('round-trips any JSON value and is idempotent', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const line = canonicalJsonLine(value)
        expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify(value)))
        expect(canonicalJsonLine(JSON.parse(line))).toBe(line)
      }),
    )
  })

  it('refuses NaN, infinities, functions and cycles, naming the path', () => {
    expect(() => canonicalJsonLine({ a: [1, Number.NaN] })).toThrow(CanonicalJsonError)
    expect(() => canonicalJsonLine({ a: [1, Number.NaN] })).toThrow('$.a[1]')
    expect(() => canonicalJsonLine({ f: () => 1 })).toThrow('$.f')
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    try {
      canonicalJsonLine(cycle)
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(CanonicalJsonError)
      expect((error as CanonicalJsonError).code).toBe('CANONICAL_JSON_UNSUPPORTED')
      expect((error as CanonicalJsonError).path).toBe('$.self')
    }
  })
})

describe('prettyJson', () => {
  it('matches Python json.dumps(indent=2, sort_keys=True) with and without ensure_ascii', () => {
    expect(prettyJson(TRICKY, { ensureAscii: true })).toBe(`${PY_PRETTY_ASCII}\n`)
    expect(prettyJson(TRICKY)).toBe(`${PY_PRETTY_UNICODE}\n`)
  })

  it('prints empty lists and objects inline', () => {
    expect(prettyJson({ y: { z: [] }, x: [[], {}] })).toBe(`${PY_PRETTY_EMPTIES}\n`)
    expect(prettyJson([])).toBe('[]\n')
    expect(prettyJson({})).toBe('{}\n')
  })

  it('reproduces the published manifest.json', () => {
    const text = readFileSync(new URL('manifest.json', FIXTURES), 'utf8')
    expect(prettyJson(JSON.parse(text))).toBe(text)
  })
})

describe('compareCodePoints', () => {
  it('orders astral characters after U+FFFF, unlike UTF-16 order', () => {
    expect(['\u{1F600}', '\uffff', 'a'].sort(compareCodePoints)).toEqual(['a', '\uffff', '\u{1F600}'])
    expect(['\u{1F600}', '\uffff'].sort()).toEqual(['\u{1F600}', '\uffff'])
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0)
  })
})
