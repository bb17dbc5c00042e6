// Builds the CommonJS side of `timegrounded/jest`: Jest projects in CommonJS
// mode (ts-jest's and babel-jest's default) cannot load an ES module, so the
// test-side entry and the config helper also ship as esbuild bundles,
// `dist/jest/index.cjs` and `dist/jest/config.cjs`, beside the ESM build tsc
// wrote. `@jest/globals` stays outside (Jest provides it to each test file).
// `import.meta.url` has no CommonJS form: it is replaced by the URL of
// dist/version.js, so the package root (and `fixtures/`) resolve as in the ESM build.
// Type declarations for the `require` condition are CommonJS copies of the ESM
// ones (`*.d.cts` beside each `*.d.ts` the two entries reach, relative imports
// pointing at `.cjs`): TypeScript under `module: node16` refuses a `.d.cts`
// that only re-exports an ES module's declarations (TS1479).
// Run by `npm run build`, after tsc.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = join(ROOT, 'dist/jest')

for (const name of ['index', 'config']) {
  await build({
    entryPoints: [join(DIST, `${name}.js`)],
    absWorkingDir: ROOT,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['@jest/globals'],
    define: { 'import.meta.url': '__timegroundedModuleUrl' },
    banner: {
      js: "const __timegroundedModuleUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', 'version.js')).href;",
    },
    legalComments: 'none',
    sourcemap: false,
    outfile: join(DIST, `${name}.cjs`),
    logLevel: 'warning',
  })
}

// Relative module specifiers in declarations (`from './x.js'`, `import('./x.js')`).
const RELATIVE_JS = /((?:from|import)\s*\(?\s*)(['"])(\.\.?\/[^'"]*)\.js\2/g
const pending = ['index', 'config'].map((name) => join(DIST, `${name}.d.ts`))
const written = new Set()
while (pending.length > 0) {
  const file = pending.pop()
  if (written.has(file)) continue
  written.add(file)
  const text = readFileSync(file, 'utf8')
  for (const match of text.matchAll(RELATIVE_JS)) pending.push(resolve(dirname(file), `${match[3]}.d.ts`))
  writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), text.replace(RELATIVE_JS, '$1$2$3.cjs$2'))
}
