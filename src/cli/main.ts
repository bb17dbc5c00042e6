#!/usr/bin/env node
/**
 * The `timegrounded` command as installed (the package's bin). It sets V8
 * up for a short-lived command, answers a bare `--version` itself, starts
 * Node's compile cache (compile-cache.ts) and requires the bundle that holds
 * the command asked for: one command's code, or every command's for the help
 * and a command we do not know (command-names.ts, scripts/build-cli.js). The
 * program itself is program.ts.
 */
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { HARNESS_VERSION, PACKAGE_ROOT } from '../version.js'
import { bundleFor, isBareVersion } from './command-names.js'
import { startCompileCache } from './compile-cache.js'
import { applyV8Settings } from './v8-settings.js'

/** What a command's bundle exports: the program with its commands. */
interface Program {
  main(args: readonly string[]): Promise<void>
}

const args = process.argv.slice(2)
applyV8Settings(bundleFor(args))

// A reader that stops early (`timegrounded run --help | head -3`) closes the pipe: what is left
// to print has nobody to read it. Leave quietly, with the exit code already decided (a gate's
// verdict is set before its summary is printed), instead of an unhandled EPIPE's stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error
  // With no argument, process.exit keeps the exit code already set (0 when none was).
  process.exit()
})

/** Runs the program of the bundle `name` (dist/cli/bundles/NAME.cjs) on `args`. */
async function runBundle(name: string, args: readonly string[]): Promise<void> {
  const bundle = fileURLToPath(new URL(`dist/cli/bundles/${name}.cjs`, PACKAGE_ROOT))
  await (createRequire(bundle)(bundle) as Program).main(args)
}

if (isBareVersion(args)) process.stdout.write(`${HARNESS_VERSION}\n`)
else {
  startCompileCache()
  runBundle(bundleFor(args), args).catch((error: unknown) => {
    // The program sets its own exit codes; what reaches here is a bundle that could not be read or run.
    process.stderr.write(`timegrounded: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exitCode = 3
  })
}
