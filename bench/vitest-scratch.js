// Scratch Vitest projects for the vitest and watch benches (not a benchmark itself:
// bench/run.js runs *.bench.js only). Each project lives under the system's temp
// folder with a node_modules that links every package of this repository's
// node_modules plus `timegrounded` itself (the built package, dist/), the shape
// of an install from npm.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO = fileURLToPath(new URL('../', import.meta.url))
export const VITEST = join(REPO, 'node_modules/vitest/vitest.mjs')

/**
 * A fresh scratch folder whose node_modules resolves `vitest` and `timegrounded` as an installed project would;
 * `timegrounded` is this repository, or the built package folder `TG_BENCH_PACKAGE` names (to compare two builds).
 */
export function scratchRoot(name, pkg = process.env.TG_BENCH_PACKAGE || REPO) {
  const root = mkdtempSync(join(tmpdir(), `${name}-`))
  const modules = join(root, 'node_modules')
  mkdirSync(modules)
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (entry === '.bin' || entry === '.package-lock.json') continue
    symlinkSync(join(REPO, 'node_modules', entry), join(modules, entry))
  }
  symlinkSync(pkg, join(modules, 'timegrounded'))
  writeFileSync(join(root, 'package.json'), '{ "name": "bench-scratch", "private": true, "type": "module" }\n')
  return root
}

// Linked, timegrounded resolves to its real path (outside node_modules): say explicitly that Vitest
// loads it natively, as it does any installed package.
const EXTERNAL = 'server: { deps: { external: [/\\/dist\\//] } }'
const PLUGIN = 'timegrounded({ baseline: false, outputDir: process.env.TG_OUTPUT, color: false })'

/** Write the project `name` under `root` from its files ({ path: text }); returns its folder. */
export function writeProject(root, name, files) {
  const dir = join(root, name)
  mkdirSync(dir, { recursive: true })
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text)
  return dir
}

/** Vitest's own cost: one trivial test, no plugin. */
export function emptyProject(root) {
  return writeProject(root, 'empty', {
    'vitest.config.js': `import { defineConfig } from 'vitest/config'\nexport default defineConfig({ cacheDir: process.env.TG_CACHE_DIR, test: { include: ['*.probes.js'] } })\n`,
    'empty.probes.js': `import { test } from 'vitest'\ntest('nothing', () => {})\n`,
  })
}

/** The plugin (reporter) but no suite; its one test times the worker's imports of timegrounded into TIMEGROUNDED_PERF_LOG. */
export function pluginProject(root) {
  return writeProject(root, 'plugin', {
    'vitest.config.js': `import { defineConfig } from 'vitest/config'\nimport { timegrounded } from 'timegrounded/vitest'\nexport default defineConfig({ cacheDir: process.env.TG_CACHE_DIR, plugins: [${PLUGIN}], test: { include: ['*.probes.js'], ${EXTERNAL} } })\n`,
    'import.probes.js': `import { appendFileSync } from 'node:fs'
import { test } from 'vitest'
const log = (phase, ms) => process.env.TIMEGROUNDED_PERF_LOG && appendFileSync(process.env.TIMEGROUNDED_PERF_LOG, JSON.stringify({ phase, ms, pid: process.pid }) + '\\n')
test('imports', async () => {
  let started = performance.now()
  await import('timegrounded/vitest')
  log('worker import of timegrounded/vitest', performance.now() - started)
  started = performance.now()
  await import('timegrounded')
  log('then timegrounded (for referenceStore)', performance.now() - started)
})
`,
  })
}

/** A split through `referenceStore(store)`; `store.js` carries the marker line the watch bench rewrites. */
export function splitProject(root, name, split, store) {
  return writeProject(root, name, {
    'vitest.config.js': `import { defineConfig } from 'vitest/config'\nimport { timegrounded } from 'timegrounded/vitest'\nexport default defineConfig({ cacheDir: process.env.TG_CACHE_DIR, plugins: [${PLUGIN}], test: { include: ['*.probes.js'], ${EXTERNAL} } })\n`,
    'store.js': `import { referenceStore } from 'timegrounded'\nexport const EDIT_MARKER = 0\nexport const createStore = referenceStore('${store}')\n`,
    [`${split}.probes.js`]: `import { timegroundedSuite } from 'timegrounded/vitest'\nimport { createStore } from './store.js'\ntimegroundedSuite(() => createStore(), { split: '${split}' })\n`,
  })
}

/** The environment of every Vitest the benches start: no outer Vitest's or CI's settings. */
export function benchEnv(scratch, extra = {}) {
  const env = { ...process.env }
  for (const key of Object.keys(env))
    if (key.startsWith('VITEST') || key.startsWith('TG_') || key === 'TEST' || key === 'NODE_ENV' || key === 'CI' || key === 'GITHUB_STEP_SUMMARY')
      delete env[key]
  return { ...env, TG_CACHE_DIR: join(scratch, 'cache'), TG_OUTPUT: join(scratch, 'out'), FORCE_COLOR: '0', NO_COLOR: '1', ...extra }
}

/** CPU seconds (user + system) of this process's waited-for children so far, from /proc (Linux). */
export function childrenCpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
  // After "pid (comm) ": state is field 3, cutime 16 and cstime 17 (1-based), in clock ticks.
  return (Number(fields[13]) + Number(fields[14])) / clockTicks()
}

let ticks
/** Clock ticks per second (`getconf CLK_TCK`, usually 100). */
export function clockTicks() {
  ticks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  return ticks
}
