/**
 * The transitions of some rows: each (episode, transition)'s first answered target `pre` and `post`
 * rows, grouped in row order, with the episode's controls, and whether the transition succeeded; and a
 * row's family. Its own file because the metrics, the bootstrap and the report all start from it.
 */
import type { AnsweredRow, PredictionRow } from './results.js'
import { isControl, isCurrent, JUDGE_AS_NEEDED, type Judge } from './row-verdicts.js'

// The loops over every row count by index rather than `for…of`: a command's scoring runs in V8's
// interpreter, where each step of an array iterator is a call and a result object (about 40 bytes a
// row, for the garbage collector), and an index is neither.

/** One scored transition: the first answered target `pre` and `post` rows of (episode, transition). */
export interface TransitionOutcome {
  episode_id: string
  transition_id: string
  family: string
  success: boolean
  pre_correct: boolean
  post_correct: boolean
  /** The post answer returned the invalidated value. */
  leak: boolean
  /** The episode's controls: answered non-history control rows of phase check/post. */
  controls: { cases: number; correct: number }
  pre_probe_id: string
  post_probe_id: string
}

/** The first answered target `pre` and `post` rows of one (episode, transition), and the first of its rows. */
interface TransitionGroup {
  first: AnsweredRow
  pre?: AnsweredRow
  post?: AnsweredRow
}

/** The transition groups of `rows` in the order each first appears, and every episode's control tally. */
function transitionGroups(rows: readonly PredictionRow[], judge: Judge) {
  const controls = new Map<string, { cases: number; correct: number }>()
  const groups: TransitionGroup[] = []
  // By episode, then transition: string keys, so no separator character can make two pairs collide.
  const byEpisode = new Map<string, Map<string, TransitionGroup>>()
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at] as PredictionRow
    if (row.status !== 'answered') continue
    if (isCurrent(row) && isControl(row)) {
      const tally = controls.get(row.episode_id) ?? { cases: 0, correct: 0 }
      tally.cases++
      if (judge.correct(row)) tally.correct++
      controls.set(row.episode_id, tally)
    }
    if (row.role !== 'target') continue
    let transitions = byEpisode.get(row.episode_id)
    if (transitions === undefined) {
      transitions = new Map()
      byEpisode.set(row.episode_id, transitions)
    }
    let group = transitions.get(row.transition_id)
    if (group === undefined) {
      group = { first: row }
      transitions.set(row.transition_id, group)
      groups.push(group)
    }
    if (row.phase === 'pre' && group.pre === undefined) group.pre = row
    if (row.phase === 'post' && group.post === undefined) group.post = row
  }
  return { controls, groups }
}

export function outcomesOf(rows: readonly PredictionRow[], judge: Judge): TransitionOutcome[] {
  const { controls, groups } = transitionGroups(rows, judge)
  const outcomes: TransitionOutcome[] = []
  for (const { pre, post, first } of groups) {
    if (pre === undefined || post === undefined) continue
    const episodeControls = controls.get(first.episode_id) ?? { cases: 0, correct: 0 }
    const preCorrect = judge.correct(pre)
    const postCorrect = judge.correct(post)
    const leak = judge.leak(post)
    outcomes.push({
      episode_id: first.episode_id,
      transition_id: first.transition_id,
      family: familyOf(first),
      success: preCorrect && postCorrect && episodeControls.cases > 0 && episodeControls.correct === episodeControls.cases && !leak,
      pre_correct: preCorrect,
      post_correct: postCorrect,
      leak,
      controls: episodeControls,
      pre_probe_id: pre.probe_id,
      post_probe_id: post.probe_id,
    })
  }
  return outcomes
}

/**
 * Transitions in row order. A group counts only with both a `pre` and a `post`
 * answered target row; success needs both right, every episode control right
 * (and at least one control), and no leak of the old value.
 */
export function transitionOutcomes(rows: readonly PredictionRow[]): TransitionOutcome[] {
  return outcomesOf(rows, JUDGE_AS_NEEDED)
}

/** A row's family; upstream rows without one take it from `episode_id` ("<family>-<NN>"). */
export function familyOf(row: { family?: string; episode_id: string }): string {
  if (typeof row.family === 'string' && row.family.length > 0) return row.family
  const cut = row.episode_id.lastIndexOf('-')
  return cut > 0 ? row.episode_id.slice(0, cut) : row.episode_id
}
