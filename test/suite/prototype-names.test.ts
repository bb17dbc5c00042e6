/**
 * Names that are members of Object.prototype (`__proto__`, `constructor`,
 * `toString`), given where a key comes from the user or a file: a suite's
 * name, a baseline's suites and families, a manifest's `files`. Each must be
 * an entry like any other name. The suite runs the smoke split against a
 * real reference store and finishRun writes and reads a real baseline file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { finishRun } from '../../src/report/finish-run.js'
import { resolveReporterOptions, resolveSuiteOptions } from '../../src/suite/options.js'
import { planSuite } from '../../src/suite/probes.js'
import { loadSplit } from '../../src/tivarq/dataset.js'
import { inspectDatasetSync } from '../../src/tivarq/validate.js'
import { VITEST_COMMANDS } from '../../src/vitest/commands.js'
import { runSmokeSuite } from '../support/smoke-suite.js'
import { cleanupCopies, copyFixtures, editManifest } from '../tivarq/fixture-copy.js'

const root = mkdtempSync(join(tmpdir(), 'timegrounded-prototype-names-'))
afterAll(() => {
  rmSync(root, { recursive: true, force: true })
  cleanupCopies()
})

async function records(name: string) {
  const plan = planSuite(await loadSplit(undefined, 'smoke'), resolveSuiteOptions({ split: 'smoke', name }))
  return runSmokeSuite(plan, 'oracle', { status: 'missing' }, false)
}

function finish(name: string, all: Awaited<ReturnType<typeof records>>, update: boolean) {
  return finishRun({
    records: all,
    root: join(root, name),
    options: resolveReporterOptions({ html: false }, 'test'),
    update: update ? { kind: 'update' } : { kind: 'none' },
    previous: null,
    shard: null,
    color: false,
    commands: VITEST_COMMANDS,
    cwd: join(root, name),
  })
}

describe.each(['constructor', 'toString', '__proto__'])('a suite named %s', (name) => {
  test('beside a baseline of another suite: no entry of its own, never one it inherits', async () => {
    const other = await records('tivarq')
    expect(finish(name, other, true).failed).toBe(false)
    const run = finish(name, await records(name), false)
    expect(run.text).not.toContain('baseline refused')
    expect(run.text).toContain(`timegrounded [${name}] 60 of 60 probes ran: 60 passed`)
    expect(run.failed).toBe(false)
  })

  test('-u writes its entry into the file, and the next run is compared with it', async () => {
    const all = await records(name)
    const recorded = finish(`${name}-u`, all, true)
    expect(recorded.text).toContain('baseline written to timegrounded.baseline.json: 60 probes')
    const file = JSON.parse(readFileSync(join(root, `${name}-u`, 'timegrounded.baseline.json'), 'utf8'))
    expect(Object.keys(file.suites)).toEqual([name])
    expect(Object.getOwnPropertyDescriptor(file.suites, name)?.value.split).toBe('smoke')
    const again = finish(`${name}-u`, all, false)
    expect(again.text).not.toContain('baseline refused')
    expect(again.text).not.toContain('no baseline')
    expect(again.failed).toBe(false)
  })
})

test('a baseline whose suite and family are named __proto__ keeps both as entries when read back', async () => {
  const dir = join(root, 'read-back')
  finish('read-back', await records('__proto__'), true)
  const path = join(dir, 'timegrounded.baseline.json')
  const text = readFileSync(path, 'utf8')
  const file = JSON.parse(text)
  const entry = Object.getOwnPropertyDescriptor(file.suites, '__proto__')!.value
  // The smoke split's families, with one renamed `__proto__` in the stored figures: the entry must then be refused as edited.
  const [family] = Object.keys(entry.by_family)
  const figures = entry.by_family[family!]
  delete entry.by_family[family!]
  Object.defineProperty(entry.by_family, '__proto__', { value: figures, enumerable: true })
  writeFileSync(path, JSON.stringify(file))
  const run = finish('read-back', await records('__proto__'), false)
  expect(run.text).toContain(`suite "__proto__": by_family.${family}: stored (absent)`)
  expect(run.failed).toBe(true)
})

test('a manifest `files` entry named __proto__ is an issue naming it, not ignored', () => {
  const dir = copyFixtures()
  editManifest(dir, (manifest) => Object.defineProperty(manifest.files, '__proto__', { value: '0'.repeat(64), enumerable: true }))
  expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toContain('"__proto__"')
  const { result } = inspectDatasetSync(dir)
  expect(result.status).toBe('invalid')
  if (result.status !== 'invalid') return
  expect(result.issues).toContainEqual(
    expect.objectContaining({
      code: 'invalid_manifest',
      path: 'files.__proto__',
      message: expect.stringContaining("which is not one of the dataset's split files"),
    }),
  )
})
