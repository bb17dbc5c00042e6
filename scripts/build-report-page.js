// Bundles the HTML report's page script (src/report/html/page/main.ts, with
// Observable Plot and the d3 modules it uses) into one minified script, which
// the renderer inlines into every report.html. Run by `npm run build`, after tsc.
// Writes, under dist/report/html/:
//   page.bundle.js           the script, opening with the licence notices of the code it bundles
//   THIRD-PARTY-NOTICES.txt  the same notices, for the package
// No network: esbuild and the bundled packages come from node_modules.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const ENTRY = join(ROOT, 'src/report/html/page/main.ts')
const OUT_DIR = join(ROOT, 'dist/report/html')

const result = await build({
  entryPoints: [ENTRY],
  absWorkingDir: ROOT,
  bundle: true,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  charset: 'utf8',
  // Licence comments are gathered below, one notice per distinct licence text, rather than scattered through the code.
  legalComments: 'none',
  metafile: true,
  write: false,
  outfile: 'page.bundle.js',
  tsconfig: join(ROOT, 'src/report/html/page/tsconfig.json'),
  logLevel: 'warning',
})
const code = result.outputFiles[0].text

/** The directories of the packages whose code ended up in the bundle, by name, from the metafile (inputs tree-shaken away count for nothing). */
function bundledPackages() {
  const packages = new Map()
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const at = input.lastIndexOf('node_modules/')
      if (at === -1 || bytesInOutput === 0) continue
      const parts = input.slice(at + 'node_modules/'.length).split('/')
      const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
      packages.set(name, join(ROOT, input.slice(0, at + 'node_modules/'.length), name))
    }
  }
  return [...packages.entries()].sort(([a], [b]) => (a < b ? -1 : 1))
}

function licenceText(dir) {
  const file = readdirSync(dir).find((name) => /^licen[cs]e(\.md|\.txt)?$/i.test(name))
  if (file === undefined) throw new Error(`${dir} has no LICENSE file; the report cannot bundle code whose licence it cannot reproduce`)
  return readFileSync(join(dir, file), 'utf8').trim()
}

// One notice per distinct licence text, naming every package (and version) it covers.
const byText = new Map()
for (const [name, dir] of bundledPackages()) {
  const { version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const text = licenceText(dir)
  const entry = byText.get(text) ?? { licence: license, packages: [] }
  entry.packages.push(`${name}@${version}`)
  byText.set(text, entry)
}
const notices = [
  'The timegrounded report page bundles the following third-party code, under these licences.',
  ...[...byText.entries()].map(([text, { licence, packages }]) => `${packages.join(', ')} (${licence}):\n\n${text}`),
].join('\n\n----------------------------------------------------------------------\n\n')
if (notices.includes('*/')) throw new Error('a licence text contains "*/", which would end the comment that carries it')

const script = `/*!\n${notices}\n*/\n${code}`
// The script is inlined into <script>…</script>: text that would end or confuse that element must not occur in it.
for (const forbidden of ['</script', '<!--', '<script']) {
  if (script.toLowerCase().includes(forbidden)) throw new Error(`the bundled page script contains "${forbidden}"; it cannot be inlined into report.html as is`)
}

mkdirSync(OUT_DIR, { recursive: true })
writeFileSync(join(OUT_DIR, 'page.bundle.js'), script)
writeFileSync(join(OUT_DIR, 'THIRD-PARTY-NOTICES.txt'), `${notices}\n`)
process.stdout.write(
  `report page script: ${(Buffer.byteLength(script) / 1024).toFixed(0)} KiB, bundling ${[...byText.values()].reduce((n, e) => n + e.packages.length, 0)} packages\n`,
)
