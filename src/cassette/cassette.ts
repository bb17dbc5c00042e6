/**
 * One cassette as a run uses it. Each request is looked up by its key and by
 * how many times the same request was sent before (its repetition), so that
 * with repeats each repetition gets its own recorded sample. In `replay` the
 * model is never called; in `record` every call goes to it and the cassette
 * is written anew with exactly the calls asked for (plus those other workers
 * of the same session wrote); in `auto` what is there is replayed and what is
 * missing recorded. Every recorded call is appended to this writer's side
 * file at once and merged into the cassette under its lock by `flush()`,
 * which also runs at exit.
 */
import { appendFileSync, mkdirSync, rmSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { dirname, resolve } from 'node:path'
import { explainMiss } from './difference.js'
import { type CassetteEntry, type CassetteRequest, type CassetteResponse, entryId, requestKey, responseChecksum } from './entry.js'
import { entryLine } from './entry-line.js'
import { CassetteError } from './errors.js'
import type { ModelCallCounts } from '../tivarq/report-shape.js'
import { cassetteText, readCassette, readSideFile, shownPath, sideFileFor, sideFilesToMerge, withLock, writeAtomically } from './file.js'
import { MODEL_CALLS_ENV, MODEL_CALLS_SESSION_ENV, type ModelCallsMode, resolveModelCallsMode } from './mode.js'

export type { ModelCallCounts }

/** What one call through a cassette is asked with. */
export interface CassetteCall {
  request: CassetteRequest
  /** The probe or question the call serves: named in a miss and kept with the recording. */
  probe?: string | null
  /** Makes the call for real; only run in record and auto. */
  live: () => Promise<CassetteResponse>
}

const counts: ModelCallCounts = { replayed: 0, recorded: 0, live: 0 }

/** The calls this process made so far, by how they were answered. */
export function modelCallCounts(): ModelCallCounts {
  return { ...counts }
}

/** The calls this process made since `before` (an earlier `modelCallCounts()`): what one suite's stores asked. */
export function modelCallsSince(before: ModelCallCounts): ModelCallCounts {
  return { replayed: counts.replayed - before.replayed, recorded: counts.recorded - before.recorded, live: counts.live - before.live }
}

/** Counts a call made with no cassette. */
export function countLiveCall(): void {
  counts.live++
}

/** The recording session of this run: shared by its workers through the environment, made here when none is set. */
export function recordingSession(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[MODEL_CALLS_SESSION_ENV]
  if (given !== undefined && given !== '') return given
  const made = `${new Date().toISOString()}-${randomBytes(4).toString('hex')}`
  // Set for the processes this one starts: they record in the same session.
  env[MODEL_CALLS_SESSION_ENV] = made
  return made
}

export class Cassette {
  readonly file: string
  readonly mode: ModelCallsMode
  private readonly session: string
  private recorded: Map<string, CassetteEntry> | null = null
  private readonly sent = new Map<string, number>()
  private readonly fresh = new Map<string, CassetteEntry>()
  private sideFile: string | null = null
  /** A call was made since the last flush: in record mode even a replay-free run rewrites the file, dropping what was not asked. */
  private dirty = false

  constructor(file: string, mode: ModelCallsMode, session: string) {
    this.file = file
    this.mode = mode
    this.session = session
  }

  /** The recorded entries, read (strictly) on first use; empty in record mode, which replays nothing. */
  private entries(): Map<string, CassetteEntry> {
    if (this.recorded !== null) return this.recorded
    const read = this.mode === 'record' ? [] : readCassette(this.file, true)
    if (read === null && this.mode === 'replay') {
      throw new CassetteError(
        'CASSETTE_MISS',
        `there is no cassette at ${shownPath(this.file)} to replay; record it once with ${MODEL_CALLS_ENV}=record and the model's key set, then commit it`,
        this.file,
      )
    }
    this.recorded = new Map((read ?? []).map((entry) => [entryId(entry.key, entry.repetition), entry]))
    return this.recorded
  }

  /**
   * Reads a replayed cassette now rather than at the first call, so that the first probe's latency is its
   * own (reading a 2 MB cassette takes about 20 ms). A cassette that cannot be read is left for that first
   * call to report, where the error names the probe.
   */
  load(): void {
    if (this.mode !== 'replay' || this.recorded !== null) return
    try {
      this.entries()
    } catch {
      // Read again, and reported, by the first call.
    }
  }

  /**
   * The entries the cassette file holds (none in record mode), read on first use: for a caller that finds
   * its request's key by what it asks rather than by hashing the request. Throws as the first call would
   * when there is no cassette to replay, or it cannot be read.
   */
  recordedEntries(): IterableIterator<CassetteEntry> {
    return this.entries().values()
  }

  /** The answer to one call: replayed, or made and recorded, as the mode says. */
  async call(call: CassetteCall): Promise<CassetteResponse> {
    const key = requestKey(call.request)
    const repetition = this.sent.get(key) ?? 0
    this.sent.set(key, repetition + 1)
    const id = entryId(key, repetition)
    if (this.mode === 'record') this.dirty = true
    if (this.mode !== 'record') {
      const hit = this.entries().get(id) ?? this.fresh.get(id)
      if (hit !== undefined) {
        counts.replayed++
        return hit.response
      }
      if (this.mode === 'replay') throw this.miss(call, repetition)
    }
    const response = await call.live()
    this.keep({
      key,
      repetition,
      probe: call.probe ?? null,
      request: call.request,
      response,
      response_sha256: responseChecksum(response),
      session: this.session,
      written_at: new Date().toISOString(),
    })
    counts.recorded++
    return response
  }

  /**
   * The recorded answer to the request whose key is `key` (its `requestKey`), taken as `call` would take it
   * (this sending's repetition used up, counted as replayed) when there is one and `usable` accepts it;
   * otherwise undefined with nothing taken, so that the caller can still make the call through `call`.
   * Never records, never misses: a caller that knows its request's key without building the request answers
   * a replay with no more than this lookup.
   */
  replayIfRecorded(key: string, usable: (response: CassetteResponse) => boolean): CassetteResponse | undefined {
    if (this.mode === 'record') return undefined
    const repetition = this.sent.get(key) ?? 0
    const id = entryId(key, repetition)
    const hit = this.entries().get(id) ?? this.fresh.get(id)
    if (hit === undefined || !usable(hit.response)) return undefined
    this.sent.set(key, repetition + 1)
    counts.replayed++
    return hit.response
  }

  private keep(entry: CassetteEntry): void {
    this.fresh.set(entryId(entry.key, entry.repetition), entry)
    this.dirty = true
    try {
      if (this.sideFile === null) {
        mkdirSync(dirname(this.file), { recursive: true })
        this.sideFile = sideFileFor(this.file)
      }
      appendFileSync(this.sideFile, `${entryLine(entry)}\n`)
    } catch (error) {
      throw new CassetteError('CASSETTE_WRITE_FAILED', `cannot record into ${shownPath(this.file)}: ${(error as Error).message}`, this.file)
    }
  }

  private miss(call: CassetteCall, repetition: number): CassetteError {
    const recorded = [...this.entries().values()]
    const sameRequest = recorded.filter((entry) => entry.key === requestKey(call.request)).length
    const what = call.probe ? `probe ${call.probe}` : 'a call'
    const model = `${call.request.provider}:${call.request.model}`
    const why =
      sameRequest > 0
        ? `this request was recorded ${sameRequest} time${sameRequest === 1 ? '' : 's'} and this is sending ${repetition + 1} (more repeats than when it was recorded)`
        : (explainMiss(
            call.request,
            recorded.map((entry) => entry.request),
          ) ?? 'the cassette holds no call at all')
    return new CassetteError(
      'CASSETTE_MISS',
      `${what} asked ${model} a request ${shownPath(this.file)} has no recording of: ${why}. Re-record with ${MODEL_CALLS_ENV}=record (or ${MODEL_CALLS_ENV}=auto to record only what is missing) and the model's key set, then commit the cassette.`,
      this.file,
    )
  }

  /**
   * Merges what this writer recorded into the cassette, under its lock: in record mode the cassette keeps
   * this session's entries only (so a request nobody asked for again is dropped), in auto every entry.
   */
  flush(): void {
    if (this.mode === 'replay' || !this.dirty) return
    withLock(this.file, () => {
      const merged = new Map<string, CassetteEntry>()
      const take = (entry: CassetteEntry): void => {
        if (this.mode === 'auto' || entry.session === this.session) merged.set(entryId(entry.key, entry.repetition), entry)
      }
      for (const entry of readCassette(this.file, false) ?? []) take(entry)
      const sideFiles = sideFilesToMerge(this.file, this.sideFile)
      for (const side of sideFiles) for (const entry of readSideFile(this.file, side)) take(entry)
      for (const entry of this.fresh.values()) merged.set(entryId(entry.key, entry.repetition), entry)
      writeAtomically(this.file, cassetteText(merged.values()))
      for (const side of sideFiles) rmSync(side, { force: true })
    })
    this.sideFile = null
    this.fresh.clear()
    this.dirty = false
  }
}

const open = new Map<string, Cassette>()
let flushesAtExit = false

/** The cassette at `file` for this process (one per file and mode, so every store of a run shares its counts and repetitions). */
export function openCassette(file: string, options: { mode?: ModelCallsMode; env?: NodeJS.ProcessEnv } = {}): Cassette {
  const path = resolve(file)
  const mode = resolveModelCallsMode(options.mode, path, options.env ?? process.env)
  const session = recordingSession(options.env ?? process.env)
  const id = `${mode}\u0000${session}\u0000${path}`
  let cassette = open.get(id)
  if (cassette === undefined) {
    cassette = new Cassette(path, mode, session)
    open.set(id, cassette)
  }
  if (!flushesAtExit && mode !== 'replay') {
    flushesAtExit = true
    process.once('exit', flushAtExit)
  }
  return cassette
}

/** Writes every cassette this process recorded into. Runs at exit too; call it sooner to have the files before then. */
export function flushCassettes(): void {
  for (const cassette of open.values()) cassette.flush()
}

/** At exit nothing can be thrown to anyone: a cassette that cannot be written is warned about, and its side file stays for the next recording to merge. */
function flushAtExit(): void {
  for (const cassette of open.values()) {
    try {
      cassette.flush()
    } catch (error) {
      process.emitWarning(`timegrounded: ${(error as Error).message}`)
    }
  }
}
