/**
 * What identifies the run a shard belongs to, so that a merge never joins a
 * fresh shard with a stale one: the timegrounded version, the commit (from
 * the CI's variables, else `git` in the project root, with a digest of the
 * uncommitted changes) and a run id the shards of one CI run share. A field
 * nobody can know is null, and null only matches null.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { HARNESS_VERSION } from '../version.js'

/** One shard's run, as its file or blob records it. */
export interface RunIdentity {
  /** `timegrounded@<version>` that ran the shard. */
  package: string
  /** The commit the shard ran, when one is known; `+<digest>` marks uncommitted changes to tracked files. */
  commit: string | null
  /** An id shared by every shard of one CI run (its variable named), when the CI gives one. */
  runId: string | null
}

/** Variables that hold the commit a CI job runs, in the order they are read. */
const COMMIT_VARIABLES = ['GITHUB_SHA', 'CI_COMMIT_SHA', 'BUILDKITE_COMMIT', 'CIRCLE_SHA1', 'BITBUCKET_COMMIT'] as const
/**
 * Variables that every job of one CI run shares (not the attempt: re-running
 * one failed shard must still merge with the shards that passed before).
 * `TIMEGROUNDED_RUN_ID` is ours, for any other CI.
 */
const RUN_VARIABLES = ['TIMEGROUNDED_RUN_ID', 'GITHUB_RUN_ID', 'CI_PIPELINE_ID', 'BUILDKITE_BUILD_ID', 'CIRCLE_WORKFLOW_ID', 'BITBUCKET_BUILD_NUMBER'] as const

/** The identity of the run going on in `root` now. */
export function currentRunIdentity(root: string, env: NodeJS.ProcessEnv = process.env): RunIdentity {
  const runVariable = RUN_VARIABLES.find((name) => nonEmpty(env[name]))
  const commitVariable = COMMIT_VARIABLES.find((name) => nonEmpty(env[name]))
  return {
    package: `timegrounded@${HARNESS_VERSION}`,
    commit: commitVariable === undefined ? gitCommit(root) : env[commitVariable]!,
    runId: runVariable === undefined ? null : `${runVariable}=${env[runVariable]}`,
  }
}

function nonEmpty(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== ''
}

/** HEAD in `root`, with a digest of `git diff HEAD` when tracked files changed; null outside a repository or without git. */
function gitCommit(root: string): string | null {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 30_000 })
  const head = git('rev-parse', 'HEAD')
  if (head.status !== 0 || head.error !== undefined) return null
  const diff = git('diff', 'HEAD', '--no-ext-diff', '--no-color')
  const changes = diff.status === 0 && diff.stdout !== '' ? `+${createHash('sha256').update(diff.stdout).digest('hex').slice(0, 12)}` : ''
  return `${head.stdout.trim()}${changes}`
}

/** The fields in which two identities differ, in words (`commit abc… vs def…`). */
export function identityDifferences(a: RunIdentity, b: RunIdentity): string[] {
  const fields: (keyof RunIdentity)[] = ['package', 'commit', 'runId']
  return fields.filter((field) => a[field] !== b[field]).map((field) => `${field} ${a[field] ?? 'unknown'} vs ${b[field] ?? 'unknown'}`)
}
