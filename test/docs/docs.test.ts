/**
 * Issue 11: the docs stay true and navigable. README.md, every page under
 * docs/ and the examples' READMEs are checked for what test/readme.test.ts
 * (which runs their commands) does not cover:
 *
 * - every relative link and `#anchor` resolves, by GitHub's anchor rules;
 * - the README stays a short front door that links every page, as does the index;
 * - the TypeScript snippets import relative files as NodeNext needs (or, marked
 *   CommonJS, as a CommonJS Jest project does), and only names the built entry
 *   points export;
 * - every error code or constant the prose names exists in the source;
 * - output marked `<!-- output of npm run demo -->` is what the demo prints.
 *
 * Needs dist/ (npm test builds it first).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anchors, codeBlocks, DOC_FILES, prose, readDoc, REPO, relativeLinks, slug } from './markdown.js'

const DOCS_PAGES = DOC_FILES.filter((file) => file.startsWith('docs/') && file !== 'docs/README.md')

describe('anchors as GitHub makes them', () => {
  test('lower case, punctuation and code marks dropped, spaces as hyphens, repeats numbered', () => {
    expect(slug('Options of `timegrounded(options)` (and of `TimegroundedReporter`)')).toBe('options-of-timegroundedoptions-and-of-timegroundedreporter')
    expect(slug('See it work: `npm run demo`')).toBe('see-it-work-npm-run-demo')
    expect(slug("Run the SQLite example's own suite")).toBe('run-the-sqlite-examples-own-suite')
    expect(slug('The rows (schema `tivarq.v1`)')).toBe('the-rows-schema-tivarqv1')
    expect(slug('Agents in other languages: `timegrounded.agent.v1`')).toBe('agents-in-other-languages-timegroundedagentv1')
    expect(slug('The [wire protocol](x.md) — `tivarq_adapter`')).toBe('the-wire-protocol--tivarq_adapter')
    expect([...anchors('# A\n\n```sh\n# not a heading\n```\n## A\n### B c\n')]).toEqual(['a', 'a-1', 'b-c'])
  })
})

describe('links', () => {
  for (const file of DOC_FILES) {
    test(`every relative link and anchor of ${file} resolves`, () => {
      const broken: string[] = []
      for (const { target, line } of relativeLinks(readDoc(file))) {
        const [path = '', anchor] = target.split('#')
        const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)))
        if (!existsSync(join(REPO, resolved))) broken.push(`${file}:${line} links to ${target}: ${resolved} does not exist`)
        else if (anchor !== undefined && !(resolved.endsWith('.md') && anchors(readDoc(resolved)).has(anchor)))
          broken.push(`${file}:${line} links to ${target}: ${resolved} has no heading whose anchor is #${anchor}`)
      }
      expect(broken).toEqual([])
    })
  }

  test('the README is a front door of at most 250 lines that links every page of docs/, and so does the index', () => {
    expect(DOCS_PAGES.length).toBeGreaterThan(10)
    expect(readDoc('README.md').split('\n').length).toBeLessThanOrEqual(250)
    for (const index of ['README.md', 'docs/README.md']) {
      const linked = new Set(relativeLinks(readDoc(index)).map(({ target }) => normalize(join(dirname(index), target.split('#')[0]!))))
      expect(
        DOCS_PAGES.filter((page) => !linked.has(page)),
        `${index} should link every page of docs/`,
      ).toEqual([])
    }
  })
})

describe('TypeScript snippets', () => {
  const snippets = DOC_FILES.flatMap((file) =>
    codeBlocks(readDoc(file))
      .filter(({ language }) => language === 'ts' || language === 'typescript')
      .map(({ body, line, marker }) => ({
        where: `${file}:${line}`,
        code: body.map(({ text }) => text).join('\n'),
        // A `<!-- CommonJS: … -->` line above marks a test file of a CommonJS Jest project, where relative imports have no extension.
        commonjs: marker?.startsWith('CommonJS') === true,
      })),
  )
  const relativeImports = (code: string): string[] => [...code.matchAll(/from '(\.{1,2}\/[^']*)'/g)].map((match) => match[1]!)

  test('they import relative files with a .js extension, as NodeNext resolution needs', () => {
    const relative = snippets.filter(({ commonjs }) => !commonjs).flatMap(({ where, code }) => relativeImports(code).map((path) => ({ where, path })))
    expect(relative.length).toBeGreaterThan(2)
    expect(relative.filter(({ path }) => !path.endsWith('.js'))).toEqual([])
  })

  test('those marked CommonJS import relative files without an extension, and no value from the ESM-only main entry', () => {
    const commonjs = snippets.filter(({ commonjs }) => commonjs)
    expect(commonjs.length).toBeGreaterThan(0)
    for (const { where, code } of commonjs) {
      expect(
        relativeImports(code).filter((path) => /\.[cm]?[jt]s$/.test(path)),
        where,
      ).toEqual([])
      expect(code, where).not.toMatch(/import\s+\{[^}]*\}\s*from\s*'timegrounded'/)
    }
  })

  test('every name they import from timegrounded, timegrounded/vitest or timegrounded/jest is exported by that entry point', () => {
    const entries: Record<string, string> = {
      timegrounded: 'dist/index.d.ts',
      'timegrounded/vitest': 'dist/vitest/index.d.ts',
      'timegrounded/jest': 'dist/jest/index.d.ts',
      'timegrounded/jest/config': 'dist/jest/config.d.ts',
      'timegrounded/ai-sdk': 'dist/ai-sdk/index.d.ts',
    }
    const files = Object.values(entries).map((file) => join(REPO, file))
    for (const file of files) expect(existsSync(file), `${file} is missing: run \`npm run build\` first (npm test does)`).toBe(true)
    // Reading the declarations alone (no resolution) lists each entry's exports by name, values and types alike.
    const program = ts.createProgram(files, { noResolve: true, noLib: true, types: [] })
    const checker = program.getTypeChecker()
    const exported = new Map(
      Object.entries(entries).map(([name, file]) => {
        const module = checker.getSymbolAtLocation(program.getSourceFile(join(REPO, file))!)!
        return [name, new Set(checker.getExportsOfModule(module).map((symbol) => symbol.name))]
      }),
    )
    const missing: string[] = []
    let checked = 0
    for (const { where, code } of snippets) {
      for (const [, names = '', from = ''] of code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
        const names_ = exported.get(from)
        if (names_ === undefined) continue
        for (const name of names
          .split(',')
          .map(
            (part) =>
              part
                .trim()
                .replace(/^type\s+/, '')
                .split(/\s+as\s+/)[0]!,
          )
          .filter((part) => part !== '')) {
          checked++
          if (!names_.has(name)) missing.push(`${where} imports ${name} from '${from}', which does not export it`)
        }
      }
    }
    expect(checked).toBeGreaterThan(20)
    expect(missing).toEqual([])
  })
})

/** Every file of the source, the examples, the scripts and the benchmarks, as one text to search. */
function sourceText(): string {
  const texts: string[] = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(REPO, dir))) {
      const path = join(dir, name)
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue
      if (statSync(join(REPO, path)).isDirectory()) walk(path)
      else if (/\.(ts|js|mjs|py)$/.test(name)) texts.push(readFileSync(join(REPO, path), 'utf8'))
    }
  }
  for (const dir of ['src', 'examples', 'scripts', 'bench']) walk(dir)
  return texts.join('\n')
}

test('every value the root entry exports (api/timegrounded.api.md) is named in a doc, the README or an example', () => {
  const report = readFileSync(join(REPO, 'api/timegrounded.api.md'), 'utf8')
  const values = [...report.matchAll(/^export (?:abstract class|class|function|const) (\w+)/gm)].map((match) => match[1] as string)
  expect(values.length).toBeGreaterThan(60)
  const examples = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      if (['node_modules', 'dist', '.timegrounded'].includes(name)) return []
      return statSync(path).isDirectory() ? examples(path) : /\.(ts|js|mjs|md)$/.test(name) ? [readFileSync(path, 'utf8')] : []
    })
  const text = [...DOC_FILES.map(readDoc), ...examples(join(REPO, 'examples'))].join('\n')
  const unnamed = values.filter((name) => !new RegExp(`\\b${name}\\b`).test(text))
  expect(unnamed, 'document these in docs/api.md (or the page of their subject), or stop exporting them').toEqual([])
})

test('every error code, variable or constant the prose names in CAPITALS exists in the source', () => {
  const source = sourceText()
  const unknown: string[] = []
  for (const file of DOC_FILES) {
    for (const [, name = ''] of prose(readDoc(file)).matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)) {
      if (!source.includes(name)) unknown.push(`${file} names \`${name}\`, which no file of src/, examples/, scripts/ or bench/ has`)
    }
  }
  expect([...new Set(unknown)]).toEqual([])
})

describe('output copied from npm run demo', () => {
  const MARKER = 'output of npm run demo'
  let demo: string[] = []
  let build = ''

  beforeAll(() => {
    // The demo's own build (npm run demo) writes examples/dist, which another test file compiles too: build a private copy.
    mkdirSync(join(REPO, 'tmp'), { recursive: true })
    build = mkdtempSync(join(REPO, 'tmp', 'docs-demo-'))
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'examples/tsconfig.json', '--outDir', build], {
      cwd: REPO,
      encoding: 'utf8',
    })
    expect(tsc.stdout + tsc.stderr).toBe('')
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
    for (const key of Object.keys(env)) if (key.startsWith('VITEST')) delete env[key]
    const ran = spawnSync(process.execPath, [join(build, 'demo.js')], { cwd: REPO, encoding: 'utf8', env, timeout: 120_000 })
    expect(ran.stderr).toBe('')
    expect(ran.status).toBe(0)
    demo = ran.stdout.split('\n')
  }, 180_000)

  afterAll(() => {
    if (build !== '') rmSync(build, { recursive: true, force: true })
  })

  const blocks = DOC_FILES.flatMap((file) => codeBlocks(readDoc(file)).flatMap((block) => (block.marker?.startsWith('output of') ? [{ file, ...block }] : [])))

  test('the README shows a sample report from the demo, and every output marker names the demo', () => {
    expect(blocks.filter(({ file }) => file === 'README.md').length).toBeGreaterThan(0)
    expect(blocks.filter(({ marker }) => marker !== MARKER).map(({ file, line }) => `${file}:${line}`)).toEqual([])
  })

  for (const { file, line, body } of blocks) {
    test(`${file}:${line} is what npm run demo prints`, () => {
      const shown = body.map(({ text }) => text)
      // Where the demo's output agrees with the block for longest (the block's first line may recur).
      const starts = demo.flatMap((text, at) => (text === shown[0] ? [at] : []))
      const agreeing = (start: number): number => shown.findIndex((text, i) => demo[start + i] !== text)
      const best = starts.find((start) => agreeing(start) === -1) ?? starts.sort((a, b) => agreeing(b) - agreeing(a))[0]
      expect(best === undefined ? [] : demo.slice(best, best + shown.length), `${file}:${line} should show lines npm run demo prints, in order`).toEqual(shown)
    })
  }
})
