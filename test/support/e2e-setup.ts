// The e2e tier's global setup (vitest.config.ts): packs the built repository once
// for every test file that installs it (the Jest fixture projects, the fresh
// project of test/package.test.ts, examples/jest-memory), and gives them a
// folder where a fixture project installed once is shared (test/support/shared-install.ts).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

declare module 'vitest' {
  export interface ProvidedContext {
    /** The packed tarball of the built repository. */
    tarball: string
    /** The paths the tarball holds, as `npm pack --json` lists them. */
    packedFiles: string[]
    /** Where installed fixture projects are kept for every test file of the run. */
    installs: string
  }
}

export default function setup(project: TestProject): () => void {
  if (!existsSync(join(ROOT, 'dist/index.js')) || !existsSync(join(ROOT, 'dist/jest/index.cjs')))
    throw new Error('dist/ is missing: run `npm run build` before the e2e tests (npm test does)')
  const work = mkdtempSync(join(tmpdir(), 'timegrounded-e2e-'))
  // npm run from `npm test` passes its own settings down as npm_* variables; the child npm should not inherit them.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')))
  // --ignore-scripts: pack what is built; `prepack` would rebuild, which is not what is under test.
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, env, encoding: 'utf8', timeout: 240_000 })
  if (pack.status !== 0) throw new Error(`npm pack failed: exit ${pack.status}\n${pack.stdout}\n${pack.stderr}`)
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[]
  const installs = join(work, 'installs')
  mkdirSync(installs)
  project.provide('tarball', join(work, info!.filename))
  project.provide(
    'packedFiles',
    info!.files.map((file) => file.path),
  )
  project.provide('installs', installs)
  return () => rmSync(work, { recursive: true, force: true })
}
