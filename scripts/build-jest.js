// Builds the CommonJS side of `timegrounded/jest`: Jest projects in CommonJS
// mode (ts-jest's and babel-jest's default) cannot load an ES module, so the
// test-side entry and the config helper also ship as esbuild bundles,
// `dist/jest/index.cjs` and `dist/jest/config.cjs`, beside the ESM build tsc
// wrote. `@jest/globals` stays outside (Jest provides it to each test file).
// `import.meta.url` has no CommonJS form: it is replaced by the URL of
// dist/version.js, so the package root (and `fixtures/`) resolve as in the ESM build.
// Type declarations for the `require` condition: TypeScript reads a `.d.ts`
// under a `"type": "module"` package as an ES module, which a CommonJS file may
// not import, so the declarations are copied to dist/cjs-types/ under a
// package.json that says `commonjs`.
// Run by `npm run build`, after tsc.
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
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

const TYPES = join(ROOT, 'dist/cjs-types')
/** Every declaration file under `dir`, relative to it. */
function declarations(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = join(prefix, entry.name)
    if (entry.isDirectory()) return path === 'cjs-types' ? [] : declarations(dir, path)
    return entry.name.endsWith('.d.ts') ? [path] : []
  })
}
for (const file of declarations(join(ROOT, 'dist'))) {
  mkdirSync(dirname(join(TYPES, file)), { recursive: true })
  copyFileSync(join(ROOT, 'dist', file), join(TYPES, file))
}
writeFileSync(join(TYPES, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`)
