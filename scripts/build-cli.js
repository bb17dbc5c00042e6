// Bundles the `timegrounded` command, after tsc, into dist/cli/:
// - bundles/NAME.cjs: one CommonJS bundle per command (the program with that
//   command alone and everything it imports), and bundles/all.cjs with every
//   command, each behind its own lazy import, for the help and a command we do
//   not know. A command compiles and runs its own code only.
// - main.js, the bin: a small CommonJS file (dist/cli/package.json says the
//   folder is CommonJS) that starts Node's compile cache where Node has one
//   (src/cli/compile-cache.ts), picks the bundle for its command line and
//   requires it (src/cli/main.ts). CommonJS, so that a command never sets up
//   Node's ES module loader (and node:fs/promises with it) for files that
//   import nothing of their own.
// tsc's own dist/cli/ files are then removed: nothing ships that does not run.
// The library entry points (dist/index.js, dist/vitest/, dist/jest/) are left
// as tsc wrote them. Run by `npm run build`, after tsc.
// `import.meta.url` is read by dist/version.js to find the package root
// (fixtures/, the page script): it is replaced by the URL dist/version.js has,
// computed from each output file's own.
// No source maps: a map would name node_modules files that an installed
// package does not hold at those paths.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI_DIR = join(ROOT, 'dist/cli')
const BUNDLE_DIR = join(CLI_DIR, 'bundles')
const COMMAND_NAMES = readdirSync(join(CLI_DIR, 'commands'))
  .filter((name) => name.endsWith('.js'))
  .map((name) => name.slice(0, -3))

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
 * A plugin that gives the modules of one package folder (`importer`, a path
 * ending) its own text for one import (`specifier`), in place of what the
 * import names; every other importer of the specifier gets the real thing.
 */
function standIn(name, { specifier, importer, contents }) {
  return {
    name,
    setup(build) {
      build.onResolve({ filter: specifier }, (args) => (importer.test(args.resolveDir) ? { path: name, namespace: name } : undefined))
      build.onLoad({ filter: /.*/, namespace: name }, () => ({ contents, loader: 'js' }))
    },
  }
}

/**
 * commander requires node:child_process when it loads, for subcommands run as
 * executables, which this CLI has none of; Node's child_process brings net,
 * dgram and the stream wrappers with it. In the bundle commander gets it on
 * first use instead, so `score` and `validate`, which start no process, never
 * load it (`run` loads it for its adapter processes).
 */
const lazyChildProcessForCommander = standIn('lazy-child-process-for-commander', {
  specifier: /^node:child_process$/,
  importer: /node_modules\/commander\/lib$/,
  contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] })\n",
})

/**
 * chalk detects at import whether stdout and stderr take colour, which loads
 * node:os and node:tty and asks the terminal; this CLI never uses that
 * answer: every Chalk it makes is given its level (colour only when
 * `wantsColor` says so, src/cli/color.ts). In the bundle the detection says
 * "no colour" without asking, so no command loads tty for it.
 */
const noColorDetectionForChalk = standIn('no-color-detection-for-chalk', {
  specifier: /^#supports-color$/,
  importer: /node_modules\/chalk\/source$/,
  contents: 'export default { stdout: false, stderr: false }\n',
})

/**
 * An `import()` left in a bundle would have Node set up its ES module loader
 * when it runs: a Node built-in imported lazily (`await import('node:child_process')`)
 * is required on first use instead, still only when that code runs. The build
 * fails on any `import()` left.
 */
const lazyBuiltinsByRequire = {
  name: 'lazy-builtins-by-require',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'lazy-builtin' } : undefined))
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)})\n`,
      loader: 'js',
    }))
  },
}

/** Fails the build when a bundle would still call `import()`, which would load Node's ES module loader. */
function noDynamicImportLeft(name, metafile) {
  for (const output of Object.values(metafile.outputs)) {
    const left = output.imports.filter((each) => each.kind === 'dynamic-import')
    if (left.length > 0) throw new Error(`bundles/${name}.cjs would import() ${left.map((each) => each.path).join(', ')} at run time: bundle it or require it`)
  }
}

/**
 * zod is the one library most commands carry but few of their runs call: it
 * checks what the CLI reads from outside (a dataset that is not the bundled
 * one, a model's replies, a baseline). It is bundled once, as bundles/zod.cjs,
 * and a bundle requires it where its code first needs it, so a run that never
 * checks such a file neither holds nor compiles it.
 */
const zodApart = {
  name: 'zod-apart',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, () => ({ path: './zod.cjs', external: true }))
  },
}

/** `registerScore` for `score`: the name each command module exports its registration under. */
const registerName = (command) => `register${command[0].toUpperCase()}${command.slice(1)}`
const distPath = (path) => JSON.stringify(join(CLI_DIR, path))

/** The entry of a bundle: its program, given one command (statically imported, so a missing export fails the build) or all of them. */
function entryOf(name) {
  const program = `import { runProgram } from ${distPath('program.js')}\n`
  if (name === 'all')
    return `${program}import { COMMAND_MODULES } from ${distPath('command-modules.js')}\nexport const main = (args) => runProgram(args, COMMAND_MODULES)\n`
  const register = registerName(name)
  return `${program}import { ${register} } from ${distPath(`commands/${name}.js`)}\nexport const main = (args) => runProgram(args, { ${name}: async () => ${register} })\n`
}

const shared = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Minified: the source text of the bundle a command runs is held in memory
  // while it runs (minified: 0.8-1.5 MiB less peak memory, docs/performance.md).
  // Names still survive: errors name themselves after their class (`new.target.name`),
  // and stack traces show each function's own name. Lines are cut at 200
  // characters, so the source line Node prints beside an uncaught error stays one short line.
  minify: true,
  keepNames: true,
  lineLimit: 200,
  define: { 'import.meta.url': '__timegroundedModuleUrl' },
  legalComments: 'none',
  write: false,
  logLevel: 'warning',
}

/** The line that defines, in a CommonJS output file, the URL `import.meta.url` stands for: dist/version.js's, at `fromOutput` from the file. */
const versionUrlBanner = (fromOutput) => ({
  js: `const __timegroundedModuleUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, ${JSON.stringify(fromOutput)})).href;`,
})

/** One command's bundle (or every command's), as its text. */
async function bundleText(name) {
  const result = await build({
    ...shared,
    plugins: [zodApart, lazyChildProcessForCommander, noColorDetectionForChalk, lazyBuiltinsByRequire],
    stdin: { contents: entryOf(name), resolveDir: CLI_DIR, sourcefile: `bundles/${name}.js`, loader: 'js' },
    format: 'cjs',
    metafile: true,
    // A bundle lives in dist/cli/bundles/: dist/version.js is two folders up.
    banner: versionUrlBanner('../../version.js'),
  })
  noDynamicImportLeft(name, result.metafile)
  return result.outputFiles[0].text
}

/** zod, as the bundles require it (`z` and the rest of its exports). */
async function zodText() {
  const result = await build({
    ...shared,
    plugins: [englishOnlyZodLocales],
    stdin: { contents: "export * from 'zod'\n", resolveDir: ROOT, sourcefile: 'bundles/zod.js', loader: 'js' },
    format: 'cjs',
  })
  return result.outputFiles[0].text
}

const bundles = {}
for (const name of [...COMMAND_NAMES, 'all']) bundles[name] = await bundleText(name)
bundles.zod = await zodText()
// CommonJS too (dist/cli/package.json says so for the folder): an ES module as the program's main file
// would have Node set up its ES module loader, and node:fs/promises with it, for a file that imports nothing.
// It is not itself cached: Node's compile cache starts once it runs, and it is a few KiB.
const launcher = await build({
  ...shared,
  entryPoints: [join(CLI_DIR, 'main.js')],
  format: 'cjs',
  banner: versionUrlBanner('../version.js'),
  outfile: join(CLI_DIR, 'main.js'),
})

// What tsc wrote under dist/cli/ now lives in the bundles; an earlier build's bundles no longer describe what ships.
rmSync(CLI_DIR, { recursive: true, force: true })
mkdirSync(BUNDLE_DIR, { recursive: true })
writeFileSync(join(CLI_DIR, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`)
writeFileSync(join(CLI_DIR, 'main.js'), launcher.outputFiles[0].text)
let bytes = Buffer.byteLength(launcher.outputFiles[0].text)
for (const [name, text] of Object.entries(bundles)) {
  writeFileSync(join(BUNDLE_DIR, `${name}.cjs`), text)
  bytes += Buffer.byteLength(text)
}
process.stdout.write(`CLI: a launcher and ${Object.keys(bundles).length} bundles (${Object.keys(bundles).join(', ')}), ${(bytes / 1024).toFixed(0)} KiB\n`)
