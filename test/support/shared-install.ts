// A fixture project installed once per test run and copied for each test file
// that uses it (not a test file). Test files run in separate worker processes,
// so the first to ask installs under a lock directory while the others wait
// for its "done" (or "failed") marker. Each caller gets a copy of its own:
// node_modules hard-linked (nothing writes into it), every other file copied,
// so one file's scenarios never see another's.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { inject } from 'vitest'

/** How long a file waits for another file's install of the same project (an install retried against the registry included). */
const WAIT_MS = 480_000

/**
 * The installed project for `key` (what it is made of: fixture and packages), made by `install(dir)` the
 * first time any test file of the run asks, then copied to `target`.
 */
export async function sharedInstall(key: string, target: string, install: (dir: string) => Promise<void>): Promise<void> {
  const slot = join(inject('installs'), createHash('sha256').update(key).digest('hex').slice(0, 16))
  const project = join(slot, 'project')
  let mine = false
  try {
    mkdirSync(slot)
    mine = true
  } catch {
    // Another test file is installing it, or has.
  }
  if (mine) {
    try {
      await install(project)
      writeFileSync(join(slot, 'done'), '')
    } catch (error) {
      writeFileSync(join(slot, 'failed'), error instanceof Error ? error.message : String(error))
      throw error
    }
  } else {
    await waitFor(slot, key)
  }
  copyProject(project, target)
}

async function waitFor(slot: string, key: string): Promise<void> {
  for (let waited = 0; waited < WAIT_MS; waited += 500) {
    if (existsSync(join(slot, 'done'))) return
    if (existsSync(join(slot, 'failed')))
      throw new Error(`the shared install of ${key} failed in another test file: ${readFileSync(join(slot, 'failed'), 'utf8')}`)
    await sleep(500)
  }
  throw new Error(`the shared install of ${key} was not done after ${WAIT_MS / 1000} s`)
}

function copyProject(project: string, target: string): void {
  mkdirSync(target, { recursive: true })
  for (const name of readdirSync(project)) {
    if (name === 'node_modules') {
      // Hard links: a copy in a second, not a minute; symbolic links (node_modules/.bin) stay relative.
      const linked = spawnSync('cp', ['-al', join(project, name), join(target, name)], { encoding: 'utf8' })
      // Another file system (no hard links across it): a plain copy.
      if (linked.status !== 0) cpSync(join(project, name), join(target, name), { recursive: true, verbatimSymlinks: true })
    } else {
      cpSync(join(project, name), join(target, name), { recursive: true })
    }
  }
}
