/**
 * Whether two runs can be compared at all: the same data (dataset hash,
 * split, track, variant, where both sides know them) and the same probes
 * asking the same questions with the same gold. Refusals say what differs
 * and what to do.
 */
import { canonical } from '../../tivarq/gold.js'
import type { PredictionRow } from '../../tivarq/results.js'
import { CompareError, type ComparisonRun, type RunIdentity } from './sides.js'

const FIELDS: readonly { key: keyof RunIdentity; one: string; several: string }[] = [
  { key: 'datasetHash', one: 'dataset hash', several: 'dataset hashes' },
  { key: 'split', one: 'split', several: 'splits' },
  { key: 'track', one: 'track', several: 'tracks' },
  { key: 'variant', one: 'data', several: 'data' },
]

/** The identity both sides share: each field as the side that knows it says, refused where they disagree. */
export function sharedIdentity(a: ComparisonRun, b: ComparisonRun): RunIdentity {
  const shared: RunIdentity = { datasetHash: null, split: null, track: null, variant: null }
  for (const { key, one, several } of FIELDS) {
    const left = a.identity?.[key] ?? null
    const right = b.identity?.[key] ?? null
    if (left !== null && right !== null && left !== right) {
      throw new CompareError(
        'COMPARE_REFUSED',
        `${a.name} and ${b.name} were run on different ${several}: ${left} against ${right}; a comparison holds only between runs of the same ${one}. Run both stores on the same one (\`timegrounded run --split … --track …\`).`,
      )
    }
    shared[key] = left ?? right
  }
  return shared
}

/** What a probe asks, as its rows say: its episode and gold. Two runs of one dataset agree on it. */
function questionOf(row: PredictionRow): string {
  return JSON.stringify([row.episode_id, row.transition_id, row.role, row.phase, row.capability, row.expected.state, canonical(row.expected.value)])
}

function questions(rows: readonly PredictionRow[]): Map<string, string> {
  const byProbe = new Map<string, string>()
  for (const row of rows) if (!byProbe.has(row.probe_id)) byProbe.set(row.probe_id, questionOf(row))
  return byProbe
}

function someOf(ids: readonly string[]): string {
  return ids.length <= 5 ? ids.join(', ') : `${ids.slice(0, 5).join(', ')}, … (${ids.length - 5} more)`
}

/** Refuses two runs that hold different probes, or the same probe ids with other questions or gold (other data). */
export function checkSameProbes(a: ComparisonRun, b: ComparisonRun): void {
  const left = questions(a.rows)
  const right = questions(b.rows)
  const onlyA = [...left.keys()].filter((id) => !right.has(id)).sort()
  const onlyB = [...right.keys()].filter((id) => !left.has(id)).sort()
  if (onlyA.length > 0 || onlyB.length > 0) {
    const parts = [
      onlyA.length > 0 ? `${onlyA.length} only in ${a.name} (${someOf(onlyA)})` : null,
      onlyB.length > 0 ? `${onlyB.length} only in ${b.name} (${someOf(onlyB)})` : null,
    ].filter((part) => part !== null)
    throw new CompareError(
      'COMPARE_REFUSED',
      `${a.name} and ${b.name} hold different probe sets (${left.size} and ${right.size} probes): ${parts.join('; ')}. Compare runs of the same split, both run to the end (an interrupted run lacks probes: re-run it), or without \`-t\`.`,
    )
  }
  const changed = [...left.keys()].filter((id) => left.get(id) !== right.get(id)).sort()
  if (changed.length > 0) {
    throw new CompareError(
      'COMPARE_REFUSED',
      `${a.name} and ${b.name} were run on different data: ${changed.length} probes ask another question or expect another answer in each (${someOf(changed)}). Run both stores on the same dataset.`,
    )
  }
}
