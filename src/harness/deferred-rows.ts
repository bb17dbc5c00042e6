/**
 * Work on each finished row that can wait until the runner has sent its next request. The runner
 * hands a row over and then, in the same turn of the event loop, writes the next request to the
 * adapter; whatever the handler of the row does first (serialising it, writing it to disk, counting
 * progress) delays that request, and so every round trip. Queued here, the rows are handled at the
 * end of the turn (`setImmediate`), while the adapter works on the request, in the order they came.
 * `flush()` handles what is queued at once: the end of the split and an interrupt call it, so every
 * row handed over is handled, as it would have been at once; so does the process's exit (a crash).
 */
export class DeferredRows<Row> {
  private readonly queue: Row[] = []
  private scheduled: NodeJS.Immediate | null = null
  private readonly onExit = (): void => this.flush()

  /** `handle` must not throw: it runs outside any caller (catch and keep what went wrong, as `run` does with a write failure). */
  constructor(private readonly handle: (row: Row) => void) {
    process.on('exit', this.onExit)
  }

  /** Queue `row`; it is handled at the end of this turn of the event loop, or by an earlier `flush()`. */
  push(row: Row): void {
    this.queue.push(row)
    this.scheduled ??= setImmediate(() => {
      this.scheduled = null
      this.flush()
    })
  }

  /** Handle every queued row now, in order. */
  flush(): void {
    if (this.scheduled !== null) {
      clearImmediate(this.scheduled)
      this.scheduled = null
    }
    // One at a time off the front: rows queued while a row is handled wait their turn behind it.
    for (let row = this.queue.shift(); row !== undefined; row = this.queue.shift()) this.handle(row)
  }

  /** Flush, and stop watching for the process's exit. */
  close(): void {
    this.flush()
    process.removeListener('exit', this.onExit)
  }
}
