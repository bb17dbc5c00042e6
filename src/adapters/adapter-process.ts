/**
 * The NDJSON subprocess client for `tivarq.adapter.v1`: an adapter in any
 * language is a long-running process; the harness writes one request line and
 * reads exactly one reply line, in order. Every way a process can misbehave
 * (silence, death, stray output, a flood of stderr) becomes an `AdapterFault`
 * with a message naming the command; none of them can hang or crash the harness.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { monotonicMs } from './clock.js'
import { type CommandAdapterSpec, describeCommand } from './command.js'
import { AdapterFault, type AdapterFaultCode } from './errors.js'
import { closeOnInterrupt, host } from '../interrupt.js'
import { MAX_REPLY_LINE_CHARS } from '../limits.js'
import { noteReceived, type WireRequest } from './protocol.js'

/** How much of the adapter's stderr is kept for error messages (the rest is drained and dropped). */
const STDERR_TAIL_CHARS = 4_096
/** Characters of the stderr tail quoted in an error message. */
const STDERR_QUOTE_CHARS = 600
/** Characters kept of the start of a reply line over `MAX_REPLY_LINE_CHARS`, to quote it. */
const OVERLONG_HEAD_CHARS = 120
/** Schedules `flush` as a microtask (see `call`). */
const SETTLED = Promise.resolve()
/** After the process exits, wait this long for the rest of its stderr before reporting. */
const EXIT_DRAIN_MS = 100

/** What a process is called in messages: an `adapter` (tivarq.adapter.v1) or an `agent` (timegrounded.agent.v1). @default 'adapter' */
export type ProcessNoun = 'adapter' | 'agent'

/**
 * Adapter processes still running. Each runs in its own process group, out of
 * reach of a terminal's Ctrl-C, so the harness kills them when it exits, and
 * on the one interrupt path when it is signalled (a Vitest worker, say, that
 * dies of Ctrl-C): none may outlive it.
 */
const running = new Set<AdapterProcess>()
let exitHookInstalled = false
let stopKillingOnInterrupt: (() => void) | null = null

function killRunning(): void {
  for (const each of running) each.kill()
}

function trackRunning(adapter: AdapterProcess): void {
  running.add(adapter)
  stopKillingOnInterrupt ??= closeOnInterrupt(killRunning)
  if (exitHookInstalled) return
  exitHookInstalled = true
  // The real process's exit: a Jest test file's `process` is a copy that never emits it.
  host.on('exit', killRunning)
}

function untrack(adapter: AdapterProcess): void {
  running.delete(adapter)
  if (running.size > 0 || stopKillingOnInterrupt === null) return
  stopKillingOnInterrupt()
  stopKillingOnInterrupt = null
}

interface PendingCall {
  label: string
  /** How long the process may work on this call once it is at the head of the queue. */
  timeoutMs: number
  resolve(reply: Record<string, unknown>): void
  reject(fault: AdapterFault): void
}

/**
 * One running adapter process. Calls are matched to reply lines first in,
 * first out. Once a fatal fault happens the process is killed and every later
 * call fails at once with that fault: the owner must start a new one.
 *
 * Calls made before the last one is answered are written at once (the process
 * answers in order, so it reads them as if they had come one by one), and the
 * request lines of one turn of the event loop go out in a single write. A
 * call's timeout runs only while it is at the head of the queue: from its
 * write, or from the reply before it, whichever is later, so a call never
 * times out for the time the process spent on the ones before it.
 */
export class AdapterProcess {
  private readonly child: ChildProcessWithoutNullStreams
  private readonly pending: PendingCall[] = []
  /** Request lines not yet written: those of the current turn of the event loop, sent by `flush` in one write. */
  private outgoing = ''
  /**
   * The calls' one timer, for the call at the head of the queue. It is left running between calls
   * (unreferenced while none is pending) and moved on when it fires early, rather than set and
   * cleared for every call.
   */
  private timer: NodeJS.Timeout | null = null
  /** When the timer fires, and when the head call's time is up (`monotonicMs()`). */
  private timerAt = 0
  private headDeadline = 0
  /** The unfinished reply line, in pieces, and its length so far. */
  private partialLine: string[] = []
  private partialChars = 0
  /** A reply line past `MAX_REPLY_LINE_CHARS`, being counted and dropped until its newline: its start and its length so far. */
  private overlong: { head: string; chars: number } | null = null
  private stderrTail = ''
  private fault: AdapterFault | null = null
  private exited = false
  private exitStatus: { code: number | null; signal: NodeJS.Signals | null } | null = null
  private readonly exitWaiters: (() => void)[] = []
  readonly command: string

  constructor(
    readonly spec: CommandAdapterSpec,
    private readonly timeoutMs: number,
    /** The word messages use for the process, so an agent's errors do not speak of an adapter. @default 'adapter' */
    readonly noun: ProcessNoun = 'adapter',
  ) {
    this.command = describeCommand(spec.argv)
    const [file, ...args] = spec.argv as [string, ...string[]]
    // Own process group, so a timeout also kills what a wrapper script started.
    this.child = spawn(file, args, {
      cwd: spec.cwd,
      env: spec.env ? { ...process.env, ...spec.env } : process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    })
    trackRunning(this)
    this.child.stdout.setEncoding('utf8')
    this.child.stderr.setEncoding('utf8')
    this.child.stdout.on('data', (chunk: string) => this.onStdout(chunk))
    this.child.stderr.on('data', (chunk: string) => {
      this.stderrTail += chunk
      if (this.stderrTail.length > 2 * STDERR_TAIL_CHARS) this.stderrTail = this.stderrTail.slice(-STDERR_TAIL_CHARS)
    })
    // A write to a dead process fails with EPIPE; the exit handler reports it.
    this.child.stdin.on('error', () => undefined)
    this.child.on('error', (error) => {
      this.exited = true
      untrack(this)
      this.fail('ADAPTER_RESTART_FAILED', `${error.message}. Check that the command exists and is executable.`)
      this.notifyExit()
    })
    this.child.on('exit', (code, signal) => {
      this.exitStatus = { code, signal }
      this.exited = true
      untrack(this)
      // A helper the adapter started (`sleep 300 &`, a daemon) would be orphaned and would keep its pipes open.
      this.killGroup()
      // Let the last replies and stderr arrive; then let go of the pipes, whoever still holds them.
      let settled = false
      const settle = () => {
        if (settled) return
        settled = true
        this.releasePipes()
        if (!this.fault) this.fail('ADAPTER_EXITED', `${this.noun} process \`${this.command}\` ${howItEnded(code, signal)}${this.quoteStderr()}`)
        this.notifyExit()
      }
      this.child.once('close', settle)
      setTimeout(settle, EXIT_DRAIN_MS).unref()
    })
  }

  /** False once the process died or a fatal fault happened; it will answer nothing more. */
  get alive(): boolean {
    return this.fault === null
  }

  /** Process id (for diagnostics). */
  get pid(): number | undefined {
    return this.child.pid
  }

  /**
   * Send one request; resolves with the reply object, rejects with an `AdapterFault`. It may be
   * called again before the reply comes: the replies are matched to the calls in order.
   */
  call(request: WireRequest, timeoutMs: number = this.timeoutMs): Promise<Record<string, unknown>> {
    if (this.fault) return Promise.reject(this.fault)
    return new Promise((resolve, reject) => {
      this.pending.push({ label: request.type, timeoutMs, resolve, reject })
      if (this.pending.length === 1) this.startHead()
      // A settled promise's reaction runs where queueMicrotask's would, without the async resource Node makes for each of those.
      if (this.outgoing === '') SETTLED.then(this.flush)
      this.outgoing += `${JSON.stringify(request)}\n`
    })
  }

  /** Write the lines of this turn of the event loop (one write call, one wake-up of the process). */
  private readonly flush = (): void => {
    const lines = this.outgoing
    this.outgoing = ''
    if (lines !== '') this.child.stdin.write(lines)
  }

  /** The call now at the head of the queue is the one the process works on: its time starts now. */
  private startHead(): void {
    const head = this.pending[0]
    if (head === undefined) {
      this.timer?.unref()
      return
    }
    const now = monotonicMs()
    this.headDeadline = now + head.timeoutMs
    if (this.timer !== null && this.timerAt <= this.headDeadline) this.timer.ref()
    else this.armTimer(head.timeoutMs, now)
  }

  private armTimer(ms: number, now: number): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timerAt = now + ms
    this.timer = setTimeout(this.onTimer, ms)
  }

  private readonly onTimer = (): void => {
    this.timer = null
    const head = this.pending[0]
    if (head === undefined || this.fault) return
    const now = monotonicMs()
    // Fired for an earlier call's deadline (the timer is not moved on every call): wait out the rest.
    // Under a millisecond left counts as up, as a timer's own clock would have it.
    if (this.headDeadline - now >= 1) {
      this.armTimer(this.headDeadline - now, now)
      return
    }
    this.fail(
      'ADAPTER_TIMEOUT',
      `${this.noun} \`${this.command}\` did not answer ${head.label} within ${head.timeoutMs} ms (its call timeout, \`timeoutMs\`)${this.overlongSoFar()}; the process was killed${this.quoteStderr()}`,
    )
  }

  private stopTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  /**
   * End stdin (the protocol's shutdown signal); kill the process if it has not exited within `graceMs`.
   * Resolves to what went wrong on the way out (killed after the grace, or a non-zero exit), or null;
   * a process already dead resolves to null (its death was reported as a fault when it happened).
   */
  async close(graceMs = 2_000): Promise<string | null> {
    if (!this.fault) this.fault = new AdapterFault('ADAPTER_EXITED', `${this.noun} process \`${this.command}\` was closed by the harness`)
    this.rejectPending(this.fault)
    if (this.exited) return null
    // Requests made just before still reach the process, as they would have unbatched.
    this.flush()
    this.child.stdin.end()
    const exited = new Promise<void>((resolve) => this.exitWaiters.push(resolve))
    let killed = false
    const timer = setTimeout(() => {
      killed = true
      this.kill()
    }, graceMs)
    await exited
    clearTimeout(timer)
    if (killed) return `${this.noun} process \`${this.command}\` did not exit within ${graceMs} ms of its stdin closing; it was killed`
    const status = this.exitStatus
    if (status !== null && (status.signal !== null || (status.code !== null && status.code !== 0))) {
      return `${this.noun} process \`${this.command}\` ${howItEnded(status.code, status.signal)} when its stdin closed${this.quoteStderr()}`
    }
    return null
  }

  /** Kill the process (and its process group) now. */
  kill(): void {
    if (this.exited) return
    if (!this.killGroup()) this.child.kill('SIGKILL')
  }

  /** SIGKILL the process group the adapter leads; false when there is none to signal (Windows, or the group is gone). */
  private killGroup(): boolean {
    const pid = this.child.pid
    if (pid === undefined || process.platform === 'win32') return false
    try {
      process.kill(-pid, 'SIGKILL')
      return true
    } catch {
      return false
    }
  }

  /** Stop reading the pipes: a helper in a session of its own may hold them open for good. */
  private releasePipes(): void {
    this.child.stdout.destroy()
    this.child.stderr.destroy()
    this.child.stdin.destroy()
  }

  /**
   * Split stdout into lines in time linear in its length: only the new chunk is searched for a
   * newline, and the pieces of an unfinished line are joined once, when its newline arrives. (Read
   * as bytes and split at 0x0A instead, each line decoded once, it measured no faster: Buffer's
   * indexOf and toString cost what the decoder saves.) A line that grows past
   * `MAX_REPLY_LINE_CHARS` is not kept: its pieces are counted and dropped as they come, so a
   * process writing 10 MB answers costs no more memory than one writing short ones.
   */
  private onStdout(chunk: string): void {
    let start = 0
    // A chunk is most often one whole line: its end is not searched again.
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = start < chunk.length ? chunk.indexOf('\n', start) : -1) {
      if (this.overlong !== null) {
        this.overlong.chars += newline - start
        start = newline + 1
        this.onOverlongLine()
      } else {
        const line = this.partialLine.length === 0 ? chunk.slice(start, newline) : this.finishPartial(chunk.slice(start, newline))
        start = newline + 1
        if (line.length > MAX_REPLY_LINE_CHARS) {
          this.overlong = { head: line.slice(0, OVERLONG_HEAD_CHARS), chars: line.length }
          this.onOverlongLine()
        } else this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line)
      }
      if (this.fault) return
    }
    if (start < chunk.length) this.keepUnfinished(start === 0 ? chunk : chunk.slice(start))
  }

  /** Hold the start of a line whose newline has not come, or only count it once it is over the limit. */
  private keepUnfinished(piece: string): void {
    if (this.overlong !== null) {
      this.overlong.chars += piece.length
      return
    }
    this.partialLine.push(piece)
    this.partialChars += piece.length
    if (this.partialChars <= MAX_REPLY_LINE_CHARS) return
    const held = this.partialLine.join('')
    this.overlong = { head: held.slice(0, OVERLONG_HEAD_CHARS), chars: held.length }
    this.partialLine = []
    this.partialChars = 0
  }

  /** The unfinished line's pieces and `last`, joined; the next line starts empty. */
  private finishPartial(last: string): string {
    this.partialLine.push(last)
    const line = this.partialLine.join('')
    this.partialLine = []
    this.partialChars = 0
    return line
  }

  /**
   * A reply line over `MAX_REPLY_LINE_CHARS` has ended: its call fails with the line's length and the
   * limit, as an invalid answer. The stream is still in step (one line, one call), so the process goes on.
   */
  private onOverlongLine(): void {
    const { head, chars } = this.overlong as { head: string; chars: number }
    this.overlong = null
    if (this.fault) return
    const call = this.pending.shift()
    if (!call) {
      this.fail(
        'ADAPTER_PROTOCOL',
        `${this.noun} \`${this.command}\` wrote an extra line to stdout that answers no request (${chars} characters): ${quote(head)}`,
      )
      return
    }
    this.startHead()
    call.reject(
      new AdapterFault(
        'ADAPTER_INVALID_ANSWER',
        `${this.noun} \`${this.command}\` answered ${call.label} with a line of ${chars} characters, over the limit of ${MAX_REPLY_LINE_CHARS} (MAX_REPLY_LINE_CHARS); it begins ${JSON.stringify(`${head.slice(0, OVERLONG_HEAD_CHARS - 3)}...`)}`,
      ),
    )
  }

  private onLine(line: string): void {
    if (this.fault || line.trim() === '') return
    const call = this.pending.shift()
    if (!call) {
      this.fail(
        'ADAPTER_PROTOCOL',
        `${this.noun} \`${this.command}\` wrote an extra line to stdout that answers no request: ${quote(line)}; write exactly one line per request and send diagnostics to stderr`,
      )
      return
    }
    // The reply is in: the next call's time starts now (a fault below stops the timer for good).
    this.startHead()
    let reply: unknown
    try {
      reply = JSON.parse(line)
    } catch {
      this.pending.unshift(call)
      this.fail(
        'ADAPTER_PROTOCOL',
        `${this.noun} \`${this.command}\` answered ${call.label} with a line that is not JSON: ${quote(line)}; write diagnostics to stderr, not stdout`,
      )
      return
    }
    if (reply === null || typeof reply !== 'object' || Array.isArray(reply)) {
      this.pending.unshift(call)
      this.fail('ADAPTER_PROTOCOL', `${this.noun} \`${this.command}\` answered ${call.label} with ${quote(line)}, not a JSON object`)
      return
    }
    const object = reply as Record<string, unknown>
    if (object.error !== undefined && object.error !== null) {
      const reason = typeof object.error === 'string' ? object.error : JSON.stringify(object.error)
      call.reject(new AdapterFault('ADAPTER_REPLIED_ERROR', `${this.noun} replied error: ${reason}`))
      return
    }
    // Without request ids, a stray line shifts every later reply by one; a reply of
    // the wrong kind is how that shows, and nothing after it can be trusted. Only a
    // reply that is plainly the other kind counts: an acknowledgement carrying extra
    // fields of its own (even a "state") is still an acknowledgement, as upstream reads it.
    const looksLikeAnswer = 'state' in object
    const looksLikeAck = 'ok' in object
    const outOfStep = call.label === 'query' ? !looksLikeAnswer && looksLikeAck : call.label !== 'inspect' && looksLikeAnswer && !looksLikeAck
    if (outOfStep) {
      this.pending.unshift(call)
      this.fail(
        'ADAPTER_PROTOCOL',
        `${this.noun} \`${this.command}\` answered ${call.label} with ${quote(line)}, a reply to another kind of request: its replies are out of step with the requests; write exactly one line per request`,
      )
      return
    }
    // A message about the answer quotes what was sent, not what parsing made of it.
    if (call.label === 'query') noteReceived(object, line)
    call.resolve(object)
  }

  private fail(code: AdapterFaultCode, message: string): void {
    if (this.fault) return
    this.fault = new AdapterFault(code, message)
    this.rejectPending(this.fault)
    this.kill()
  }

  private rejectPending(fault: AdapterFault): void {
    this.stopTimer()
    for (const call of this.pending.splice(0)) call.reject(fault)
  }

  private notifyExit(): void {
    for (const resolve of this.exitWaiters.splice(0)) resolve()
  }

  /** What a timeout says of a line over the limit still being written (and dropped). */
  private overlongSoFar(): string {
    if (this.overlong === null) return ''
    return `; it had written ${this.overlong.chars} characters of a reply line, over the limit of ${MAX_REPLY_LINE_CHARS} (MAX_REPLY_LINE_CHARS), without its newline`
  }

  private quoteStderr(): string {
    const tail = this.stderrTail.trimEnd()
    if (tail === '') return ''
    const quoted = tail.length > STDERR_QUOTE_CHARS ? `...${tail.slice(-STDERR_QUOTE_CHARS)}` : tail
    return `; stderr ends with: ${quoted}`
  }
}

/** An adapter process just started, its capabilities request already written (see `startAdapter`). */
export interface StartedAdapter {
  readonly process: AdapterProcess
  /** What it was started as, so whoever adopts it can check it is the process they would have started. */
  readonly spec: CommandAdapterSpec
  readonly timeoutMs: number
  /** The reply to `{"type":"capabilities"}`; rejects with an `AdapterFault` as any call does. */
  readonly capabilities: Promise<Record<string, unknown>>
}

/**
 * Start an adapter process and ask for its capabilities at once: how every adapter process of a pool
 * starts, the CLI's early one included (started while the run command still loads). The reply may be
 * awaited much later, so a failure waits for that rather than surfacing as an unhandled rejection.
 */
export function startAdapter(spec: CommandAdapterSpec, timeoutMs: number): StartedAdapter {
  const process = new AdapterProcess(spec, timeoutMs)
  const capabilities = process.call({ type: 'capabilities' })
  capabilities.catch(() => undefined)
  return { process, spec, timeoutMs, capabilities }
}

/** `exited with code 3`, or `was killed by signal SIGKILL`. */
function howItEnded(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was killed by signal ${signal}` : `exited with code ${code}`
}

function quote(line: string): string {
  const shown = line.length > 120 ? `${line.slice(0, 117)}...` : line
  return JSON.stringify(shown)
}
