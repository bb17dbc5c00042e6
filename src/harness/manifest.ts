/**
 * `run_manifest.json` (schema `tivarq.run.v1`): everything needed to
 * reproduce or cite a run, upstream's keys first.
 */
import { existsSync, realpathSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AdapterInfo, CloseProblem } from './store-lease.js'
import { PROTOCOL } from '../adapters/protocol.js'
import type { Track } from '../adapters/types.js'
import { bundledDatasetDir, MANIFEST_FILE } from '../tivarq/dataset-files.js'
import type { Manifest } from '../tivarq/schema.js'
import { SCHEMA_VERSION, type Split } from '../tivarq/vocabulary.js'
import { variantOf } from '../tivarq/variant.js'
import { HARNESS_VERSION, PACKAGE_ROOT } from '../version.js'

/** `schema_version` of run_manifest.json. */
export const RUN_MANIFEST_SCHEMA = 'tivarq.run.v1'

/** What the adapter declared, as upstream records it (`capabilities` of run_manifest.json). */
export interface ManifestCapabilities {
  /** The protocol spoken: `tivarq.adapter.v1` (an in-process store is driven by the same rules). */
  protocol: string
  /** As declared; absent when the store did not declare one. */
  adapter_version?: string
  tracks: Track[]
  clock: boolean
  history: boolean
  inspection: boolean
}

/**
 * `run_manifest.json`: everything needed to reproduce or cite a run. Upstream's
 * keys first, in its order and with its meanings, so its tools read the file;
 * ours after them.
 */
export interface RunManifest {
  schema_version: typeof RUN_MANIFEST_SCHEMA
  /** `$TIVARQ_DATASET_REVISION`, else the content identifier `sha256:` of the dataset's manifest.json. */
  dataset_revision: string
  /** SHA-256 of all six JSONL files, as the dataset's manifest.json lists them. */
  dataset_file_hashes: Record<string, string>
  /** The dataset directory read (the bundled copy's path when none was given). */
  dataset_source: string
  /** The harness's git commit when it runs from its own checkout; null for an installed package (see `harness.version`). */
  harness_commit: string | null
  track: Track
  split: Split
  /** The adapter process's argv; `[]` for an in-process store (`adapter.name` names it). */
  adapter_command: string[]
  /** `--model-config` as given. @default 'none' */
  model_config: string
  /** `--prompt-config` as given. @default 'none' */
  prompt_config: string
  run_seed: number
  repeats: number
  update_polls: number
  poll_interval_ms: number
  /** `$TIVARQ_SAMPLING` as given. @default 'unspecified' */
  sampling_settings: string
  /** As declared, or `unknown`. */
  adapter_version: string
  capabilities: ManifestCapabilities
  // Ours.
  harness: { name: 'timegrounded'; version: string; commit: string | null }
  dataset: {
    /** `bundled` or the directory read. */
    source: string
    /** The same identifier as `dataset_revision`. */
    revision: string
    schema_version: string
    seed: number
    /** SHA-256 of the files read, by file name. */
    files: Record<string, string>
    /** Which variant the data is (its seed, generator and version, the variations on), or null for TIVARQ v1. */
    variant: { seed: number; generator: string; generator_version: number; variations: string[] } | null
  }
  adapter: {
    name: string
    command: string[] | null
    version: string | null
    capabilities: { clock: boolean; history: boolean; inspection: boolean; tracks: Track[] }
  }
  sampling: { concurrency: number; timeout_ms: number; bootstrap_resamples: number }
  started_at: string
  /** Stores or adapter processes that failed to close (rewritten at the end of the run); the results stand. */
  adapter_close_errors: { store: string; episode_id: string | null; message: string }[]
  /**
   * The isolation check, once it ran after the last repetition (written then): the episodes it asked
   * again (a reset and a query each), those it could not ask, the failures, and what the store reported
   * spending on its answers, which no row holds. `{ enabled: false }` under `--no-isolation-check`.
   */
  isolation_check?: {
    enabled: boolean
    episodes_asked?: number
    unanswered?: number
    failures?: number
    usage?: { prompt_tokens: number; completion_tokens: number }
    cost_usd?: number
  }
}

/** What `buildRunManifest` needs (camelCase in, snake_case out). */
export interface RunManifestInput {
  /** Directory read, or undefined for the bundled fixtures. */
  datasetDir?: string
  /** Where the data came from when it was not read from a directory. @default `bundled` without `datasetDir` */
  datasetSource?: string
  datasetManifest: Manifest
  /** SHA-256 of the files read. */
  fileHashes: Record<string, string>
  /** @default `sha256:` + fileHashes['manifest.json'] (see `manifestEnvironment`) */
  datasetRevision?: string
  track: Track
  split: Split
  adapter: AdapterInfo
  /** @default 'none' */
  modelConfig?: string
  /** @default 'none' */
  promptConfig?: string
  /** @default 'unspecified' (see `manifestEnvironment`) */
  samplingSettings?: string
  seed: number
  repeats: number
  updatePolls: number
  pollIntervalMs: number
  concurrency: number
  timeoutMs: number
  resamples: number
  /** @default HARNESS_VERSION */
  harnessVersion?: string
  /** @default null (see `harnessCommit()`) */
  harnessCommit?: string | null
  /** @default now */
  startedAt?: string
  /** What `pool.close()` reported. @default [] */
  adapterCloseErrors?: readonly CloseProblem[]
}

/**
 * The manifest settings upstream reads from the environment:
 * `TIVARQ_DATASET_REVISION` (the dataset's published revision) and
 * `TIVARQ_SAMPLING` (the model's sampling settings). Unset or empty: left to
 * `buildRunManifest`'s defaults.
 */
export function manifestEnvironment(env: Readonly<Record<string, string | undefined>>): Pick<RunManifestInput, 'datasetRevision' | 'samplingSettings'> {
  const settings: Pick<RunManifestInput, 'datasetRevision' | 'samplingSettings'> = {}
  if (env.TIVARQ_DATASET_REVISION) settings.datasetRevision = env.TIVARQ_DATASET_REVISION
  if (env.TIVARQ_SAMPLING) settings.samplingSettings = env.TIVARQ_SAMPLING
  return settings
}

/** The run manifest (schema `tivarq.run.v1`). Pure: pass the commit and environment settings in. */
export function buildRunManifest(input: RunManifestInput): RunManifest {
  const manifestHash = input.fileHashes[MANIFEST_FILE]
  const revision = input.datasetRevision ?? (manifestHash !== undefined ? `sha256:${manifestHash}` : 'unknown')
  const declared = input.adapter.capabilities
  const capabilities: ManifestCapabilities = {
    protocol: PROTOCOL,
    ...(input.adapter.adapterVersion === null ? {} : { adapter_version: input.adapter.adapterVersion }),
    tracks: [...declared.tracks],
    clock: declared.clock,
    history: declared.history,
    inspection: declared.inspection,
  }
  const commit = input.harnessCommit ?? null
  return {
    schema_version: RUN_MANIFEST_SCHEMA,
    dataset_revision: revision,
    dataset_file_hashes: { ...input.datasetManifest.files },
    dataset_source:
      input.datasetDir === undefined && input.datasetSource !== undefined ? input.datasetSource : resolve(input.datasetDir ?? bundledDatasetDir()),
    harness_commit: commit,
    track: input.track,
    split: input.split,
    adapter_command: input.adapter.command === null ? [] : [...input.adapter.command],
    model_config: input.modelConfig ?? 'none',
    prompt_config: input.promptConfig ?? 'none',
    run_seed: input.seed,
    repeats: input.repeats,
    update_polls: input.updatePolls,
    poll_interval_ms: input.pollIntervalMs,
    sampling_settings: input.samplingSettings ?? 'unspecified',
    adapter_version: input.adapter.adapterVersion ?? 'unknown',
    capabilities,
    harness: { name: 'timegrounded', version: input.harnessVersion ?? HARNESS_VERSION, commit },
    dataset: {
      source: input.datasetDir !== undefined ? resolve(input.datasetDir) : (input.datasetSource ?? 'bundled'),
      revision,
      schema_version: input.datasetManifest.schema_version ?? SCHEMA_VERSION,
      seed: input.datasetManifest.seed,
      files: { ...input.fileHashes },
      variant: variantRecord(input.datasetManifest),
    },
    adapter: {
      name: input.adapter.name,
      command: input.adapter.command === null ? null : [...input.adapter.command],
      version: input.adapter.adapterVersion,
      capabilities: { clock: declared.clock, history: declared.history, inspection: declared.inspection, tracks: [...declared.tracks] },
    },
    sampling: { concurrency: input.concurrency, timeout_ms: input.timeoutMs, bootstrap_resamples: input.resamples },
    started_at: input.startedAt ?? new Date().toISOString(),
    adapter_close_errors: closeErrorRecords(input.adapterCloseErrors ?? []),
  }
}

function variantRecord(manifest: Manifest): RunManifest['dataset']['variant'] {
  const variant = variantOf(manifest)
  return variant === null ? null : { seed: variant.seed, generator: variant.generator, generator_version: variant.version, variations: variant.variations }
}

/** `adapter_close_errors` of a run manifest: what `pool.close()` reported, snake_case. */
export function closeErrorRecords(problems: readonly CloseProblem[]): RunManifest['adapter_close_errors'] {
  return problems.map((problem) => ({ store: problem.store, episode_id: problem.episodeId, message: problem.message }))
}

/**
 * The git commit of the harness, only when it runs from its own checkout:
 * `root` must be the top of a git work tree. Installed as a package inside
 * someone's project, git would answer with *their* commit, so that is null
 * (the package version, `harness.version`, says what ran). A root holding no
 * `.git` (an installed package) cannot be a work tree's top: git is not even
 * started. Asynchronous, so `run` asks while its store starts up rather than
 * stopping for git in the middle.
 * @default root the installed package's directory
 */
export async function harnessCommit(root: string = fileURLToPath(PACKAGE_ROOT)): Promise<string | null> {
  if (!existsSync(join(root, '.git'))) return null
  // Loaded only here: a run of an in-process store starts no other process, and need not load Node's process machinery.
  const { execFile } = await import('node:child_process')
  return new Promise((settle) => {
    execFile('git', ['rev-parse', '--show-toplevel', 'HEAD'], { cwd: root, encoding: 'utf8', timeout: 2000 }, (error, stdout) => {
      settle(error === null ? commitAtTop(stdout, root) : null)
    })
  })
}

/** The commit of `git rev-parse --show-toplevel HEAD`'s answer, when the top it names is `root`. */
function commitAtTop(answer: string, root: string): string | null {
  const [top, commit] = answer.trim().split('\n')
  try {
    if (top === undefined || commit === undefined || realpathSync(top) !== realpathSync(root)) return null
  } catch {
    return null
  }
  return /^[0-9a-f]{40}$/.test(commit) ? commit : null
}
