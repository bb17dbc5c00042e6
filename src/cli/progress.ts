/**
 * Progress of a long command on stderr, shared by `run` and `probe`: a
 * cli-progress bar on a terminal; otherwise one plain line at every step
 * (so CI logs stay readable and a slow model still shows it is working).
 * cli-progress (and the text-width package it brings) loads only for a
 * terminal, and the bar appears once it has: a command run in CI or by a
 * script never loads it.
 */
import type { SingleBar } from 'cli-progress'

/** Counts finished items and failures; `stop()` removes a bar (idempotent). */
export interface Progress {
  /** One more item finished; `failed` counts it as an error. */
  tick(failed: boolean): void
  stop(): void
}

/** What the progress counts and how often a plain line is written. */
export interface ProgressOptions {
  /** Prefix of every line, e.g. `run`. */
  label: string
  /** What is counted, plural, e.g. `probes`. */
  unit: string
  /** A plain line every this many percent of the total (and at the end). @default 10 */
  everyPercent?: number
}

/** Start progress over `total` items on `stream`: a bar when it is a TTY, plain lines otherwise. */
export function startProgress(total: number, stream: NodeJS.WritableStream & { isTTY?: boolean }, options: ProgressOptions): Progress {
  let done = 0
  let errors = 0
  const { label, unit } = options
  if (stream.isTTY === true) return terminalBar(total, stream, options)
  const step = Math.max(1, Math.ceil((total * (options.everyPercent ?? 10)) / 100))
  return {
    tick(failed) {
      done++
      if (failed) errors++
      if (done % step === 0 || done === total) {
        stream.write(`${label}: ${done}/${total} ${unit} (${Math.floor((done * 100) / total)}%), ${errors} ${errors === 1 ? 'error' : 'errors'}\n`)
      }
    },
    stop() {},
  }
}

/** The bar: drawn when cli-progress has loaded, with the counts so far; nothing once stopped. */
function terminalBar(total: number, stream: NodeJS.WritableStream, options: ProgressOptions): Progress {
  const { label, unit } = options
  let done = 0
  let errors = 0
  let bar: SingleBar | null = null
  let stopped = false
  void import('cli-progress').then(({ SingleBar }) => {
    if (stopped) return
    bar = new SingleBar({
      format: `${label} {bar} {value}/{total} ${unit} | {errors} errors | {eta_formatted} left`,
      stream,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    })
    bar.start(total, done, { errors })
  })
  return {
    tick(failed) {
      done++
      if (failed) errors++
      bar?.update(done, { errors })
    },
    stop() {
      if (stopped) return
      stopped = true
      bar?.stop()
    },
  }
}
