// The project's own unit tier (`npm run test:unit`) under another Node line, for the compatibility tier
// (scripts/compat.js):
//
//   node scripts/compat-unit-cell.js --work DIR --addon better_sqlite3.node
//
// run with that line's Node (process.execPath). The repository's node_modules holds better-sqlite3
// compiled for the Node it was installed with (the machine's Node 20), which another ABI cannot load,
// and `npm test` uses that node_modules right after this tier. So the unit tier runs in a copy: the
// repository's files (tracked and untracked, not ignored) copied into DIR, node_modules hard-linked but
// for better-sqlite3's build folder, which holds the addon compiled for this Node (--addon), and Vite's
// cache, which the run writes. Prints `ok <scenario>` or `FAIL <scenario>: <why>`; exit 0 only when the tier passes.
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

function copyRepository(target) {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
  if (listed.status !== 0) throw new Error(`git ls-files in ${ROOT} failed: ${listed.stderr.trim()}`)
  for (const file of listed.stdout.split('\0').filter((name) => name !== '')) {
    // A file deleted in the working tree but still tracked is not part of what is under test.
    if (!existsSync(join(ROOT, file))) continue
    mkdirSync(dirname(join(target, file)), { recursive: true })
    copyFileSync(join(ROOT, file), join(target, file))
  }
  // Hard links: the copy in a second, and nothing in the repository's node_modules is written through them (see below).
  const linked = spawnSync('cp', ['-al', join(ROOT, 'node_modules'), join(target, 'node_modules')], { encoding: 'utf8' })
  if (linked.status !== 0) cpSync(join(ROOT, 'node_modules'), join(target, 'node_modules'), { recursive: true, verbatimSymlinks: true })
  // Vite writes its cache here during the run; unlinked first, so the repository's files keep their contents.
  rmSync(join(target, 'node_modules/.vite'), { recursive: true, force: true })
  // The build, as the repository has it when this tier runs (npm run test:compat builds first): a few unit
  // files render the HTML report, whose page script only the build makes (dist/report/html/page.bundle.js).
  if (existsSync(join(ROOT, 'dist'))) cpSync(join(ROOT, 'dist'), join(target, 'dist'), { recursive: true })
}

function placeAddon(target, addon) {
  const build = join(target, 'node_modules/better-sqlite3/build')
  rmSync(build, { recursive: true, force: true })
  mkdirSync(join(build, 'Release'), { recursive: true })
  copyFileSync(addon, join(build, 'Release/better_sqlite3.node'))
}

/** What a failed run of Vitest names: its failed files and tests, and its summary lines. */
function failedLines(output) {
  return output
    .split('\n')
    .filter((line) => /^\s*(FAIL|×)\s|^\s*(Test Files|Tests)\s/.test(line))
    .map((line) => line.trim())
    .slice(0, 12)
}

async function main() {
  const { values } = parseArgs({ options: { work: { type: 'string' }, addon: { type: 'string' } } })
  if (values.work === undefined || values.addon === undefined || !existsSync(values.addon)) {
    console.log(`FAIL arguments: usage: --work DIR --addon better_sqlite3.node (better-sqlite3 compiled for Node ${process.version})`)
    return 2
  }
  // The copy at the folder itself, not deeper: a test quotes the last characters of a crashed process's
  // stderr, whose stack lines grow with the path, and a long one pushes the message out of the quote.
  const copy = values.work
  copyRepository(copy)
  placeAddon(copy, values.addon)
  console.log(`ok copy of the repository with better-sqlite3 for Node ${process.version}`)

  const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` }
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'GITHUB_STEP_SUMMARY' || key === 'NODE_OPTIONS') delete env[key]
  // The command npm run test:unit runs, by this Node. Its output goes through as it comes, so a cell the
  // runner stops at its time limit still shows in its log how far the tier got.
  const vitest = spawn(process.execPath, [join(copy, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'unit'], { cwd: copy, env })
  let output = ''
  const keep = (sink) => (chunk) => {
    output += chunk
    sink.write(chunk)
  }
  vitest.stdout.on('data', keep(process.stdout))
  vitest.stderr.on('data', keep(process.stderr))
  return new Promise((resolve) => {
    vitest.on('error', (error) => {
      console.log(`FAIL npm run test:unit on Node ${process.version}: ${error.message}`)
      resolve(1)
    })
    vitest.on('close', (code) => {
      const plain = output.replace(/\x1b\[[0-9;]*m/g, '')
      if (code === 0) {
        const summary = plain.split('\n').find((line) => /^\s*Tests\s/.test(line))
        console.log(`ok npm run test:unit on Node ${process.version}: ${summary?.trim() ?? ''}`)
        resolve(0)
      } else {
        console.log(`FAIL npm run test:unit on Node ${process.version}: exit ${code}; ${failedLines(plain).join(' | ')}`)
        resolve(1)
      }
    })
  })
}

main().then((code) => {
  process.exitCode = code
})
