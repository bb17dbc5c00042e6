// Regenerates fixtures/timegrounded/timegrounded-v1.json from the authored source
// (src/time-grounded/corpus/source.ts): derives every gold from the session times,
// checks every corpus rule, and refuses to write a corpus that breaks one.
// Run after `npm run build`:  node scripts/gen-timegrounded-corpus.js [--check]
// (same as `timegrounded corpus --out fixtures/timegrounded/timegrounded-v1.json`).
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { buildCorpus } from '../dist/time-grounded/corpus/index.js'

const target = fileURLToPath(new URL('../fixtures/timegrounded/timegrounded-v1.json', import.meta.url))
const corpus = buildCorpus()
if (process.argv.includes('--check')) {
  const same = readFileSync(target, 'utf8') === corpus.text
  process.stdout.write(same ? `up to date: ${target}\n` : `stale: ${target}; regenerate with node scripts/gen-timegrounded-corpus.js\n`)
  process.exitCode = same ? 0 : 1
} else {
  writeFileSync(target, corpus.text)
  process.stdout.write(`wrote ${corpus.items.length} questions of ${corpus.datasetId} to ${target} (sha256 ${corpus.datasetSha256})\n`)
}
