// The newcomer's first command: how long `npm run demo` takes after the build
// (compiles the examples, then times `node examples/dist/demo.js`). Target: < 60 s.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { median } from './samples.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url))
const RUNS = 2

const compileStarted = performance.now()
const compile = spawnSync(process.execPath, [tsc, '-p', 'examples/tsconfig.json'], { cwd: root, encoding: 'utf8' })
if (compile.status !== 0) {
  process.stderr.write(`compiling examples failed:\n${compile.stdout}${compile.stderr}`)
  process.exit(1)
}
const compileSeconds = (performance.now() - compileStarted) / 1000

const timings = []
for (let run = 0; run < RUNS; run++) {
  const started = performance.now()
  const demo = spawnSync(process.execPath, ['examples/dist/demo.js'], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
  const elapsed = performance.now() - started
  if (demo.status !== 0) {
    process.stderr.write(`demo exited with ${demo.status}:\n${demo.stderr}`)
    process.exit(1)
  }
  timings.push(elapsed)
}
process.stdout.write(
  `demo (test split, 900 probes x bundled stores, node examples/dist/demo.js): median ${(median(timings) / 1000).toFixed(2)} s over ${RUNS} runs ` +
    `(min ${(Math.min(...timings) / 1000).toFixed(2)} s, max ${(Math.max(...timings) / 1000).toFixed(2)} s); target < 60 s\n` +
    `compiling the examples first (tsc -p examples/tsconfig.json, part of npm run demo): ${compileSeconds.toFixed(2)} s\n`,
)
