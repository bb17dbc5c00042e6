// Runs every bench/*.bench.js in turn, each in its own process, and prints its figures. With TG_BENCH_NODE
// naming a Node binary, the floor and startup benches time their commands under it (`node -e 0` too) and print its version.
import { readdirSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const dir = fileURLToPath(new URL('.', import.meta.url))
const only = process.argv.slice(2)
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.js'))
  .filter((name) => only.length === 0 || only.some((word) => name.includes(word)))
  .sort()
let failed = 0
for (const file of files) {
  process.stdout.write(`\n## ${file}\n`)
  const result = spawnSync(process.execPath, [dir + file], { stdio: 'inherit' })
  if (result.status !== 0) failed++
}
process.exitCode = failed === 0 ? 0 : 1
