/**
 * The clock of call timeouts and latencies: milliseconds on a monotonic clock,
 * meaningful only as differences. Read from `process.hrtime`, because
 * `performance.now()` brings node:perf_hooks and ten modules of Node's
 * performance timeline with it into every run, for this alone (about 0.8 MiB
 * of a command's peak memory).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6
}
