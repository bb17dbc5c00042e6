// How many questions the time-grounded probe needs, measured with real runs of the built-in agents
// (the figures in README.md, "How many questions are enough"). Run after `npm run build`:
//
//   node scripts/timegrounded-power.js [--replicates N] [--sizes 60,120,...] [--corpus-seeds N]   (about 20 minutes with the defaults: 100, 60..2400, 5)
//   node scripts/timegrounded-power.js --only verdict-floor                                      (section 0 alone, a few seconds)
//
// 0. The verdict's floor: the fewest questions a probe must lose (of a control that answered every
//    one, gaining none) for the paired 95% interval of the delta to lie below zero, per dataset size;
//    and, for a control floor of 50%, 2/3 and 75%, whether losing half of what a control at the floor
//    answered is called a drop. (The bootstrap alone: it sees only which questions changed.)
// 1. Interval width: builtin:ingestion-order (its clock fixed, so runs repeat exactly) under control and
//    probe on the authored twelve and on generated corpora of 12, 60, 240 and 600 questions (corpus
//    seeds 1..5); the width of the paired 95% interval of the delta (seed 20240101, 1000 resamples).
// 2. Telling two agents apart: two seeded-accuracy agents (the honest reader, right on a seeded share
//    of the questions: 80% against 75%, and 80% against 70%) run for real under timestamps-only on one
//    generated corpus per replicate; the share of replicates whose paired 95% interval of the accuracy
//    difference excludes zero, per corpus size, and the smallest size where that share reaches 80%.
//    Two ways two systems can err: independently (agents of different seeds) and nested (same seed:
//    the weaker one is wrong wherever the stronger one is, and on a few more questions).
import {
  deterministicJudge,
  generateCorpus,
  ingestionOrderAgent,
  runGrounded,
  runProbeVersusControl,
  seededAccuracyAgent,
  timeGroundedCorpus,
} from '../dist/index.js'
import { pairedBootstrapDelta } from '../dist/stats/bootstrap.js'

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : args[at + 1]
}
const REPLICATES = Number(option('replicates', '100'))
const SIZES = option('sizes', '60,120,240,360,480,720,960,1440,1920,2400').split(',').map(Number)
const CORPUS_SEEDS = Number(option('corpus-seeds', '5'))
const WIDTH_SIZES = [12, 60, 240, 600]
const POWER = 0.8
const judge = deterministicJudge()
const points = (fraction) => (fraction * 100).toFixed(1)
const out = (line = '') => process.stdout.write(`${line}\n`)

// ─── 0. The verdict's floor ─────────────────────────────────────────────────

const FLOOR_SIZES = [4, 6, 8, 10, 12, 24, 60, 120, 240, 600]
const FLOORS = [0.5, 2 / 3, 0.75]

/** Whether losing `lost` of `n` questions (the rest unchanged) is called a drop by the paired 95% bootstrap. */
function calledDrop(n, lost) {
  const control = Array.from({ length: n }, () => 1)
  const probe = control.map((_, i) => (i < lost ? 0 : 1))
  return pairedBootstrapDelta(control, probe, { seed: 20240101, resamples: 1000 }).high < 0
}

out('## The verdict’s floor: the smallest drop called, and losing half of a control at the floor')
out()
out(`| questions | smallest drop called | ${FLOORS.map((f) => `half of a ${Math.round(f * 100)}% control`).join(' | ')} |`)
out(`| ---: | ---: | ${FLOORS.map(() => '---').join(' | ')} |`)
for (const n of FLOOR_SIZES) {
  let smallest = 1
  while (smallest <= n && !calledDrop(n, smallest)) smallest++
  const half = FLOORS.map((floor) => {
    const lost = Math.floor(Math.ceil(floor * n - 1e-9) / 2)
    return `${lost}: ${calledDrop(n, lost) ? 'called' : 'missed'}`
  })
  out(`| ${n} | ${smallest > n ? 'none' : smallest} | ${half.join(' | ')} |`)
}
out()
if (args.includes('--only') && option('only', '') === 'verdict-floor') process.exit(0)

// ─── 1. Interval width of the probe − control delta ─────────────────────────

async function compare(dataset) {
  const agent = ingestionOrderAgent({ clock: () => new Date('2030-01-15T12:00:00Z') })
  return runProbeVersusControl(agent, dataset, { judge })
}

out('## Interval width of the probe − control delta (builtin:ingestion-order)')
out()
out('| questions | corpus | control | probe | delta | 95% CI | width |')
out('| ---: | --- | ---: | ---: | ---: | --- | ---: |')
const authored = await compare(timeGroundedCorpus())
const row = (n, name, r) =>
  out(
    `| ${n} | ${name} | ${points(r.control.accuracy)}% | ${points(r.probe.accuracy)}% | ${points(r.delta.value)} | [${points(r.delta.low)}, ${points(r.delta.high)}] | ${points(r.delta.high - r.delta.low)} |`,
  )
row(12, 'authored', authored)
const widths = new Map()
for (const size of WIDTH_SIZES) {
  widths.set(size, [])
  for (let seed = 1; seed <= CORPUS_SEEDS; seed++) {
    const result = await compare(generateCorpus({ size, seed }))
    widths.get(size).push(result.delta.high - result.delta.low)
    if (seed === 1) row(size, `generated, seed ${seed}`, result)
  }
}
out()
out(`Width over corpus seeds 1..${CORPUS_SEEDS} (median, range), in points:`)
out()
out('| questions | median width | range |')
out('| ---: | ---: | --- |')
for (const [size, list] of widths) {
  const sorted = [...list].sort((a, b) => a - b)
  out(`| ${size} | ${points(sorted[Math.floor(sorted.length / 2)])} | ${points(sorted[0])} – ${points(sorted.at(-1))} |`)
}

// ─── 2. Questions needed to tell two agents apart ───────────────────────────

const largest = Math.max(...SIZES)
const score = (row) => (row.status === 'judged' && row.correct ? 1 : 0)

/** One real run of a seeded-accuracy agent over the corpus; a corpus of n questions is the first n of it. */
async function outcomes(accuracy, agentSeed, corpus) {
  const result = await runGrounded(seededAccuracyAgent({ accuracy, seed: agentSeed }), corpus, { judge, mode: 'timestamps-only' })
  return result.rows.map(score)
}

async function power(stronger, weaker, nested) {
  const excluded = new Map(SIZES.map((size) => [size, 0]))
  for (let replicate = 0; replicate < REPLICATES; replicate++) {
    const corpus = generateCorpus({ size: largest, seed: 1000 + replicate })
    const a = await outcomes(stronger, 2 * replicate + 1, corpus)
    const b = await outcomes(weaker, nested ? 2 * replicate + 1 : 2 * replicate + 2, corpus)
    for (const size of SIZES) {
      const delta = pairedBootstrapDelta(a.slice(0, size), b.slice(0, size), { seed: 20240101 + replicate, resamples: 1000 })
      if (delta.high < 0 || delta.low > 0) excluded.set(size, excluded.get(size) + 1)
    }
  }
  return excluded
}

out()
out(`## Telling two agents apart (${REPLICATES} replicates per cell; share whose 95% interval of the difference excludes zero)`)
out()
out(`| questions | ${SIZES.join(' | ')} | fewest reaching ${POWER * 100}% |`)
out(`| --- | ${SIZES.map(() => '---:').join(' | ')} | ---: |`)
for (const [stronger, weaker] of [
  [0.8, 0.75],
  [0.8, 0.7],
]) {
  for (const nested of [false, true]) {
    const excluded = await power(stronger, weaker, nested)
    const shares = SIZES.map((size) => excluded.get(size) / REPLICATES)
    const enough = SIZES.find((_, i) => shares[i] >= POWER)
    const label = `${stronger * 100}% vs ${weaker * 100}% (${points(stronger - weaker)} pts), ${nested ? 'nested' : 'independent'} errors`
    out(`| ${label} | ${shares.map((share) => `${Math.round(share * 100)}%`).join(' | ')} | ${enough ?? `more than ${largest}`} |`)
  }
}
