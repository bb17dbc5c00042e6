/**
 * The bootstrap draws of a run's intervals, paid before its answers arrive.
 * The resampled indices depend only on the seed, the resamples and how many
 * episodes are resampled, all known from the split: `run` draws them while
 * its adapter process starts up, time it would otherwise spend waiting, so
 * the scoring at the end finds them drawn. Results are the same either way;
 * a run that ends with fewer episodes (interrupted, a repetition cut short)
 * draws its own, as it would have.
 */
import { drawAhead } from '../stats/bootstrap.js'
import type { Episode, Probe } from '../tivarq/schema.js'

/** The split a run asks: its episodes and their probes. */
interface RunSplit {
  episodes: readonly Pick<Episode, 'episode_id' | 'family'>[]
  probes: readonly Pick<Probe, 'episode_id'>[]
}

/**
 * Draw ahead what scoring a complete run of `split` resamples: its episodes
 * that have probes (the report's transition-success interval), and with the
 * page, each family's as many (the page's per-family intervals). Returns
 * the episode counts drawn for, in the order drawn.
 */
export function drawRunIntervalsAhead(split: RunSplit, options: { seed: number; resamples: number; page: boolean }): number[] {
  const asked = new Set(split.probes.map((probe) => probe.episode_id))
  const counts = new Set([asked.size])
  if (options.page) {
    const perFamily = new Map<string, number>()
    for (const episode of split.episodes) {
      if (asked.has(episode.episode_id)) perFamily.set(episode.family, (perFamily.get(episode.family) ?? 0) + 1)
    }
    for (const count of perFamily.values()) counts.add(count)
  }
  for (const count of counts) drawAhead(options.seed, count, options.resamples)
  return [...counts]
}
