/**
 * V8 settings for a command that lives well under a second, set as the CLI
 * starts, before any bundle is compiled (V8 takes a compile cache only when
 * the settings it was made under are the same). A setting of the user's own
 * (the node command line, NODE_OPTIONS) wins over each.
 */
import { setFlagsFromString } from 'node:v8'

/**
 * V8 12 (Node 22) replaced the byte budget by invocation counts and rejects
 * `--interrupt-budget`, printing an error line on stderr instead of throwing.
 */
const HAS_INTERRUPT_BUDGET = Number(process.versions.v8.split('.')[0]) < 12

const userSet = (name: string): boolean =>
  [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes(name) || arg.includes(name.replaceAll('-', '_')))

/** Sets the young generation's growth and, where V8 has it, the tiering budget. */
export function applyV8Settings(): void {
  // V8 doubles its young generation (up to 16 MiB a half) while a command
  // allocates, although what survives stays near 12 MiB: kept at its starting
  // size it costs a few more quick collections and 13 MiB less peak memory. The
  // maximum cannot be changed once the process runs, but the growth factor is read
  // each time it would grow.
  if (!userSet('semi-space')) setFlagsFromString('--semi-space-growth-factor=1')
  // V8 hands a function to its optimizing compiler after about 66 KiB of its
  // bytecode has run: tuned for pages and servers that run for minutes, it has a
  // command compile dozens of functions it then calls a few hundred times more.
  // At about a MiB only the loops that do run long (the bootstrap's draws, a
  // large split's rows) are compiled: less CPU for every command and 2-4 MiB
  // less peak memory (docs/performance.md). Read at each check, so it holds from here.
  if (HAS_INTERRUPT_BUDGET && !userSet('interrupt-budget')) setFlagsFromString('--interrupt-budget=1048576')
}
