// Time-grounded probe benchmarks (medians of 3 rounds):
// (a) streaming a generated LongMemEval-shaped file of ~265 MB (the size of longmemeval_s) with readLongMemEval
//     (validate + hash, nothing kept) and tallying the grounding record, as
//     `probe --dry-run` does: MB/s and peak RSS growth over the baseline.
//     For comparison, the peak RSS growth of JSON.parse(readFileSync(file)).
// (b) one probe-versus-control comparison over the embedded corpus (24 questions).
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readLongMemEval, runProbeVersusControl, honestAgent, deterministicJudge, timeGroundedCorpus } from '../dist/index.js'
import { GroundingTally } from '../dist/time-grounded/grounding.js'
import { median } from './samples.js'

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`

const dir = mkdtempSync(join(tmpdir(), 'tg-bench-'))
const file = join(dir, 'longmemeval_like.json')
const filler = 'We talked about the garden, the weather in 2023, and a long list of errands for the week. '.repeat(40)
const out = createWriteStream(file)
out.write('[\n')
const count = 12_000
for (let i = 0; i < count; i++) {
  const entry = {
    question_id: `q${i}`,
    question_type: 'temporal-reasoning',
    question: 'How many days passed between the two trips?',
    answer: 12,
    question_date: '2023/05/30 (Tue) 23:40',
    haystack_session_ids: ['s1', 's2', 's3'],
    haystack_dates: ['2023/05/20 (Sat) 02:21', '2023/05/25 (Thu) 09:00', '2023/05/27 (Sat) 11:30'],
    haystack_sessions: [0, 1, 2].map((s) => [
      { role: 'user', content: `${filler} ${i}.${s}` },
      { role: 'assistant', content: filler },
    ]),
    answer_session_ids: ['s1'],
  }
  if (!out.write(`${JSON.stringify(entry)}${i + 1 < count ? ',' : ''}\n`)) await once(out, 'drain')
}
out.end(']\n')
await once(out, 'finish')
const size = statSync(file).size

const times = []
const growth = []
for (let round = 0; round < 3; round++) {
  global.gc?.()
  const base = process.memoryUsage().rss
  let peak = base
  const tally = new GroundingTally('timestamps-only')
  const start = performance.now()
  await readLongMemEval(file, {
    onEntry: (entry, { index }) => {
      tally.add(entry)
      if (index % 200 === 0) peak = Math.max(peak, process.memoryUsage().rss)
    },
  })
  times.push(performance.now() - start)
  growth.push(peak - base)
}
const t = median(times)
process.stdout.write(
  `(a) streaming ${mb(size)} (${count} entries): median ${t.toFixed(0)} ms, ${(size / 1e6 / (t / 1000)).toFixed(1)} MB/s, peak RSS growth ${mb(median(growth))}\n`,
)

global.gc?.()
const base = process.memoryUsage().rss
const parsed = JSON.parse(readFileSync(file, 'utf8'))
const whole = process.memoryUsage().rss - base
process.stdout.write(`    for comparison, JSON.parse(readFileSync) of the same file: RSS growth ${mb(whole)} (${parsed.length} entries held)\n`)
rmSync(dir, { recursive: true, force: true })

const corpus = timeGroundedCorpus()
const runs = []
for (let round = 0; round < 3; round++) {
  const start = performance.now()
  await runProbeVersusControl(honestAgent(), corpus, { judge: deterministicJudge() })
  runs.push(performance.now() - start)
}
process.stdout.write(`(b) probe versus control over the corpus (24 questions + 1000 bootstrap resamples): median ${median(runs).toFixed(1)} ms\n`)
