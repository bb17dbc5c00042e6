// Bundles the `timegrounded` command: replaces tsc's dist/cli/main.js (the bin)
// and dist/cli/commands/*.js with an esbuild bundle of them and everything they
// import, the shared code split into chunks in dist/cli/, so a command loads a
// few files instead of about 200 ES modules (zod alone is 95). Each subcommand
// stays its own file behind its dynamic import: `--version` loads none of them.
// The library entry points (dist/index.js, dist/vitest/, dist/jest/) are left
// as tsc wrote them. Run by `npm run build`, after tsc.
// `import.meta.url` is read by dist/version.js to find the package root
// (fixtures/, the page script): it is replaced by the URL dist/version.js has,
// computed from each output file's own.
// No source maps: a map would name node_modules files that an installed
// package does not hold at those paths.
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const OUT_DIR = join(ROOT, 'dist/cli')
const COMMANDS = readdirSync(join(OUT_DIR, 'commands')).filter((name) => name.endsWith('.js'))
const entryPoints = {
  main: join(OUT_DIR, 'main.js'),
  ...Object.fromEntries(COMMANDS.map((name) => [`commands/${name.slice(0, -3)}`, join(OUT_DIR, 'commands', name)])),
}
const BANNER_VERSION_URL = "new URL('../version.js', import.meta.url)"

/**
 * zod re-exports its 40-odd message locales (about 360 KiB) as `z.locales`;
 * every command would parse them and none reads them: messages are zod's
 * English, which zod itself loads from locales/en.js. In the bundle,
 * `z.locales` holds English only.
 */
const englishOnlyZodLocales = {
  name: 'english-only-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /node_modules\/zod\/v4\/(core|classic)$/.test(args.resolveDir) ? { path: join(args.resolveDir, '../locales'), namespace: 'zod-locales' } : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from './en.js'\n",
      resolveDir: args.path,
      loader: 'js',
    }))
  },
}

/**
 * commander requires node:child_process when it loads, for subcommands run as
 * executables, which this CLI has none of; Node's child_process brings net,
 * dgram and the stream wrappers with it. In the bundle commander gets it on
 * first use instead, so `score` and `validate`, which start no process, never
 * load it (`run` loads it for its adapter processes).
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /node_modules\/commander\/lib$/.test(args.resolveDir) ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] })\n",
      loader: 'js',
    }))
  },
}

/**
 * chalk detects at import whether stdout and stderr take colour, which loads
 * node:os and node:tty and asks the terminal; this CLI never uses that
 * answer: every Chalk it makes is given its level (colour only when
 * `wantsColor` says so, src/cli/color.ts). In the bundle the detection says
 * "no colour" without asking, so no command loads tty for it.
 */
const noColorDetectionForChalk = {
  name: 'no-color-detection-for-chalk',
  setup(build) {
    build.onResolve({ filter: /^#supports-color$/ }, (args) =>
      /node_modules\/chalk\/source$/.test(args.resolveDir) ? { path: 'supports-color', namespace: 'no-color-detection' } : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'no-color-detection' }, () => ({
      contents: 'export default { stdout: false, stderr: false }\n',
      loader: 'js',
    }))
  },
}

const result = await build({
  plugins: [englishOnlyZodLocales, lazyChildProcessForCommander, noColorDetectionForChalk],
  entryPoints,
  absWorkingDir: ROOT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Minified: the source text of the chunks a command loads is held in memory
  // while it runs, zod's as two-byte text for one non-Latin-1 comment (minified:
  // 0.8-1.5 MiB less peak memory, docs/performance.md). Names still
  // survive: errors name themselves after their class (`new.target.name`), and stack
  // traces show each function's own name. Lines are cut at 200 characters, so the
  // source line Node prints beside an uncaught error stays one short line.
  minify: true,
  keepNames: true,
  lineLimit: 200,
  define: { 'import.meta.url': '__timegroundedModuleUrl' },
  banner: {
    js: [
      "import { createRequire as __timegroundedCreateRequire } from 'node:module';",
      // The CommonJS packages bundled here (cli-progress, seedrandom) call require() for Node's own modules.
      'const require = __timegroundedCreateRequire(import.meta.url);',
      `const __timegroundedModuleUrl = ${BANNER_VERSION_URL}.href;`,
    ].join(' '),
  },
  legalComments: 'none',
  outdir: OUT_DIR,
  chunkNames: 'chunk-[hash]',
  write: false,
  logLevel: 'warning',
})

// Chunks of an earlier build, and tsc's maps of the files replaced, no longer describe what ships.
for (const name of readdirSync(OUT_DIR)) {
  if (/^chunk-\w+\.js$/.test(name) || name === 'main.js.map') rmSync(join(OUT_DIR, name))
}
for (const name of COMMANDS) rmSync(join(OUT_DIR, 'commands', `${name}.map`), { force: true })
let bytes = 0
for (const file of result.outputFiles) {
  // A command's file sits one folder deeper than the chunks: its way to dist/version.js is one step longer.
  const deeper = dirname(file.path) !== OUT_DIR
  const text = deeper ? file.text.replace(BANNER_VERSION_URL, "new URL('../../version.js', import.meta.url)") : file.text
  if (deeper && dirname(file.path) !== join(OUT_DIR, 'commands')) throw new Error(`unexpected output ${file.path}`)
  writeFileSync(file.path, text)
  bytes += Buffer.byteLength(text)
}
process.stdout.write(`CLI bundle: ${result.outputFiles.length} files, ${(bytes / 1024).toFixed(0)} KiB\n`)
