/**
 * V8 settings for a command that lives well under a second, set as the CLI
 * starts, before any bundle is compiled (V8 takes a compile cache only when
 * the settings it was made under are the same). A setting of the user's own
 * (the node command line, NODE_OPTIONS) wins over each.
 */
import { setFlagsFromString } from 'node:v8'

/**
 * V8 12 (Node 22) replaced the byte budget by invocation counts and rejects
 * `--interrupt-budget`, printing an error line on stderr instead of throwing;
 * V8 11 (Node 20) has no invocation counts. Each line gets only the flags it knows.
 */
const HAS_INVOCATION_COUNTS = Number(process.versions.v8.split('.')[0]) >= 12

const userSet = (name: string): boolean =>
  [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes(name) || arg.includes(name.replaceAll('-', '_')))

/** Sets `--name=value` unless the user gave a flag that `guard` names (by default the flag itself). */
const setUnlessUserSet = (name: string, value: number, guard = name): void => {
  if (!userSet(guard)) setFlagsFromString(`--${name}=${value}`)
}

/**
 * Commands whose bootstrap kernel runs long enough for its optimised code to pay: `compare` sums
 * 10,000 resamples an interval, about 30 ms of the kernel's `ratios` on its baseline code against 7 ms
 * optimised (its draws come from xor4096 in JavaScript, not from the kernel's `fill`).
 */
const LONG_KERNEL_COMMANDS: readonly string[] = ['compare']

/** Sets the young generation's growth and the tiering thresholds of both compilers' lines, for the command (bundle) about to run. */
export function applyV8Settings(command: string): void {
  // V8 doubles its young generation (up to 16 MiB a half) while a command
  // allocates, although what survives stays near 12 MiB: kept at its starting
  // size it costs a few more quick collections and 13 MiB less peak memory. The
  // maximum cannot be changed once the process runs, but the growth factor is read
  // each time it would grow.
  // Any semi-space flag of the user's (its size too) is theirs to tune: the factor stays V8's.
  setUnlessUserSet('semi-space-growth-factor', 1, 'semi-space')
  // V8's optimising compilers are tuned for pages and servers that run for
  // minutes: a command would compile dozens of functions it then calls a few
  // hundred times more, and page in the compilers' own machine code to do it
  // (on Node 24 that is most of the 27 MiB a `score` adds to `node -e 0`).
  // With thresholds a hundred times V8's, only what does run long is compiled:
  // loops through on-stack replacement, whose thresholds stay, and functions
  // called tens of thousands of times. Read at each check, so they hold from here.
  if (HAS_INVOCATION_COUNTS) {
    setUnlessUserSet('invocation-count-for-maglev', 40_000)
    setUnlessUserSet('invocation-count-for-turbofan', 300_000)
  } else {
    setUnlessUserSet('interrupt-budget', 1_048_576)
  }
  // The bootstrap's WebAssembly kernel runs well on its baseline code
  // (src/stats/bootstrap-kernel.ts); tiering it up pages in the optimising
  // compiler for a few milliseconds saved. This budget (bytes run, roughly) lets
  // only a kernel that runs for seconds tier up.
  // `compare`'s kernel does run that long, and keeps V8's budget.
  if (!LONG_KERNEL_COMMANDS.includes(command)) setUnlessUserSet('wasm-tiering-budget', 2_000_000_000)
}
