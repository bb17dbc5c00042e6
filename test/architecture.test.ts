/**
 * The layering, checked on the sources. Data flows one way — dataset →
 * harness → rows → scorer → report → renderers, with the suite core deciding
 * pass/fail — so each folder of src/ may import only the folders listed for
 * it below. The framework-free core (everything reachable from src/index.ts,
 * and the suite core) never imports Vitest; computing modules never write to
 * the process streams; every error class carries only its own codes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'

const SRC = fileURLToPath(new URL('../src/', import.meta.url))
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g

/**
 * Which folders (or top-level modules, by name without `.ts`) each one may
 * import. A folder always imports itself. `vitest`, `jest` and `cli` are the
 * shells: nothing else may import them.
 */
const ALLOWED: Record<string, readonly string[]> = {
  errors: [],
  limits: [],
  version: [],
  // The one interrupt path: below the adapters, whose processes it kills, so every layer can register with it.
  interrupt: [],
  'option-checks': ['errors', 'limits'],
  stats: ['errors', 'limits'],
  tivarq: ['stats', 'errors', 'version', 'limits'],
  chat: ['errors', 'limits'],
  // Recorded model calls: the cassette file, its keys, modes and merging; knows nothing of any SDK.
  // It reads its files through the dataset layer's one JSON-lines reader, with the project's limits.
  cassette: ['tivarq', 'errors', 'limits'],
  adapters: ['interrupt', 'tivarq', 'chat', 'cassette', 'errors', 'version', 'limits'],
  harness: ['interrupt', 'adapters', 'tivarq', 'stats', 'errors', 'version', 'limits'],
  'time-grounded': ['adapters', 'chat', 'tivarq', 'stats', 'errors', 'option-checks', 'version', 'limits'],
  suite: ['harness', 'adapters', 'tivarq', 'time-grounded', 'stats', 'chat', 'errors', 'option-checks', 'version', 'limits'],
  // The end of a run and the page's model sit above the suite core and the probe: they word and write what those decide.
  // version: the HTML renderer reads its built page script from the package root.
  report: ['suite', 'time-grounded', 'harness', 'adapters', 'tivarq', 'stats', 'chat', 'errors', 'option-checks', 'version', 'limits'],
  // The `timegrounded/ai-sdk` entry: the one folder that imports `ai` (an optional peer); nothing imports it.
  'ai-sdk': ['cassette', 'adapters', 'time-grounded', 'tivarq', 'chat', 'errors', 'option-checks', 'version', 'limits'],
  properties: ['suite', 'harness', 'adapters', 'tivarq', 'stats', 'errors', 'option-checks', 'version', 'limits'],
  index: ['harness', 'adapters', 'tivarq', 'report', 'time-grounded', 'stats', 'chat', 'errors', 'option-checks', 'version', 'limits'],
  vitest: [
    'interrupt',
    'properties',
    'suite',
    'harness',
    'adapters',
    'tivarq',
    'report',
    'time-grounded',
    'stats',
    'chat',
    'cassette',
    'errors',
    'option-checks',
    'version',
    'limits',
  ],
  jest: [
    'interrupt',
    'properties',
    'suite',
    'harness',
    'adapters',
    'tivarq',
    'report',
    'time-grounded',
    'stats',
    'chat',
    'cassette',
    'errors',
    'option-checks',
    'version',
    'limits',
  ],
  cli: [
    'interrupt',
    'properties',
    'suite',
    'harness',
    'adapters',
    'tivarq',
    'report',
    'time-grounded',
    'stats',
    'chat',
    'cassette',
    'errors',
    'option-checks',
    'version',
    'limits',
  ],
}

function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(IMPORT)].map((match) => match[1] ?? match[2] ?? match[3]).filter((s): s is string => s !== undefined)
}

function sourceOf(from: string, specifier: string): string {
  return resolve(dirname(from), specifier).replace(/\.js$/, '.ts')
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : []
  })
}

/** The layer of a source file: its top folder under src/, or a top-level module's name. */
function layerOf(file: string): string {
  const [first, ...rest] = relative(SRC, file).split(sep)
  return rest.length > 0 ? (first as string) : (first as string).replace(/\.ts$/, '')
}

/**
 * Files of a shell another shell may import: each runner's commands, plain data that imports nothing of
 * its framework, so that `timegrounded merge` names the commands of the runner whose shards it merges.
 */
const SHELL_DATA: Record<string, readonly string[]> = { cli: ['vitest/commands.ts', 'jest/commands.ts'] }

/** Every `file → import` that crosses into a layer the table does not allow, as `from (layer) → to (layer)`. */
function layeringViolations(files: readonly string[], allowed: Record<string, readonly string[]> = ALLOWED): string[] {
  const violations: string[] = []
  for (const file of files) {
    const from = layerOf(file)
    for (const specifier of specifiers(file)) {
      if (!specifier.startsWith('.')) continue
      const target = sourceOf(file, specifier)
      const to = layerOf(target)
      if (to === from) continue
      if ((SHELL_DATA[from] ?? []).includes(relative(SRC, target).split(sep).join('/'))) continue
      if (!(allowed[from] ?? []).includes(to)) violations.push(`${relative(SRC, file)} (${from}) → ${relative(SRC, target)} (${to})`)
    }
  }
  return violations
}

/** Every source file reachable from `entries` through relative imports, with the bare packages each imports. */
function importGraph(entries: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  const pending = [...entries]
  while (pending.length > 0) {
    const file = pending.pop() as string
    if (graph.has(file)) continue
    const bare: string[] = []
    for (const specifier of specifiers(file)) {
      if (specifier.startsWith('.')) pending.push(sourceOf(file, specifier))
      else bare.push(specifier)
    }
    graph.set(file, bare)
  }
  return graph
}

function vitestImports(graph: Map<string, string[]>, entry: string): string[] {
  const offenders: string[] = []
  for (const [file, bare] of graph) {
    const where = relative(SRC, file)
    if (where.startsWith(`vitest${sep}`)) offenders.push(`${where} is reachable from ${entry}`)
    for (const name of bare) if (name === 'vitest' || name.startsWith('vitest/') || name.startsWith('@vitest/')) offenders.push(`${where} imports ${name}`)
  }
  return offenders
}

const ALL_FILES = filesUnder(SRC)

describe('layering', () => {
  test('every folder of src/ has a row in the table', () => {
    expect([...new Set(ALL_FILES.map(layerOf))].filter((layer) => !(layer in ALLOWED))).toEqual([])
  })

  test('each folder imports only the folders the table allows (file → import)', () => {
    expect(layeringViolations(ALL_FILES)).toEqual([])
  })

  test('the check names a violation by file and import (the scan sees what it should)', () => {
    // The same files against a table where tivarq may import nothing: its imports of stats and errors are named.
    const strict = { ...ALLOWED, tivarq: [] }
    const found = layeringViolations(ALL_FILES, strict)
    expect(found).toContain(`tivarq${sep}episode-bootstrap.ts (tivarq) → stats${sep}bootstrap.ts (stats)`)
    expect(found.every((line) => line.startsWith(`tivarq${sep}`))).toBe(true)
  })
})

describe('the framework-free core', () => {
  const core = importGraph([join(SRC, 'index.ts')])

  test('reaches the modules it should (the scan follows imports)', () => {
    const reached = [...core.keys()].map((file) => relative(SRC, file))
    expect(reached).toEqual(
      expect.arrayContaining(['tivarq/score.ts', 'harness/runner.ts', 'adapters/command.ts', 'time-grounded/run.ts', 'stats/bootstrap.ts']),
    )
  })

  test('src/index.ts never imports Vitest or anything under src/vitest/', () => {
    expect(vitestImports(core, 'src/index.ts')).toEqual([])
  })

  test('the suite core (src/suite/) never imports a test framework', () => {
    const suite = importGraph(filesUnder(join(SRC, 'suite')))
    expect([...suite.keys()].map((file) => relative(SRC, file))).toEqual(expect.arrayContaining(['suite/outcome.ts', 'tivarq/row-verdicts.ts']))
    const frameworks = [...suite].flatMap(([file, bare]) =>
      bare.filter((name) => /^(vitest|@vitest\/|jest|@jest\/)/.test(name)).map((name) => `${relative(SRC, file)} imports ${name}`),
    )
    expect([...vitestImports(suite, 'src/suite/'), ...frameworks]).toEqual([])
  })

  test('the two test-runner shells never import each other or the other framework', () => {
    const shell = (name: string) => importGraph(filesUnder(join(SRC, name)))
    const jest = [...shell('jest')].flatMap(([file, bare]) => [
      ...(relative(SRC, file).startsWith(`vitest${sep}`) ? [`${relative(SRC, file)} is reachable from src/jest/`] : []),
      ...bare.filter((name) => /^(vitest|@vitest\/)/.test(name)).map((name) => `${relative(SRC, file)} imports ${name}`),
    ])
    const vitest = [...shell('vitest')].flatMap(([file, bare]) => [
      ...(relative(SRC, file).startsWith(`jest${sep}`) ? [`${relative(SRC, file)} is reachable from src/vitest/`] : []),
      ...bare.filter((name) => /^(jest|@jest\/)/.test(name)).map((name) => `${relative(SRC, file)} imports ${name}`),
    ])
    expect([...shell('jest').keys()].map((file) => relative(SRC, file))).toEqual(expect.arrayContaining(['jest/suite.ts', 'report/finish-run.ts']))
    expect([...jest, ...vitest]).toEqual([])
  })

  test('the Jest config helper, reporter and watch key never load the test-side entry (it imports @jest/globals, which throws outside a test)', () => {
    for (const entry of ['config.ts', 'reporter.ts', 'watch-plugin.ts']) {
      const graph = importGraph([join(SRC, 'jest', entry)])
      const offenders = [...graph].filter(([, bare]) => bare.includes('@jest/globals')).map(([file]) => relative(SRC, file))
      expect(offenders, `jest/${entry}`).toEqual([])
    }
  })

  test("no layer below the shells names a runner's commands (each shell passes its own in)", () => {
    const below = ALL_FILES.filter((file) => !['vitest', 'jest', 'cli'].includes(layerOf(file)))
    const code = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
    const naming = below
      .filter((file) => /`npx (vitest|jest)\b|vitest\.config\.ts|jest\.config\.js|relative to the (Vitest|Jest) root/.test(code(file)))
      .map((file) => relative(SRC, file))
    expect(naming).toEqual([])
    // The scan sees what it should: the shells' own tables name them.
    expect(code(join(SRC, 'vitest', 'commands.ts'))).toContain('`npx vitest run -u`')
    expect(code(join(SRC, 'jest', 'commands.ts'))).toContain('`npx jest -u`')
  })

  test("the shells' command tables import nothing of a framework (the CLI reads both)", () => {
    for (const file of ['vitest/commands.ts', 'jest/commands.ts']) {
      const graph = importGraph([join(SRC, file)])
      const frameworks = [...graph].flatMap(([from, bare]) =>
        bare.filter((name) => /^(vitest|@vitest\/|jest|@jest\/)/.test(name)).map((name) => `${relative(SRC, from)} imports ${name}`),
      )
      expect(frameworks, file).toEqual([])
      expect([...graph.keys()].map((path) => layerOf(path)).filter((layer) => ['vitest', 'jest', 'cli'].includes(layer)).length, file).toBe(1)
    }
  })

  test('only src/ai-sdk/ imports the AI SDK (`ai`, `@ai-sdk/*`), an optional peer nothing else may load', () => {
    const importers = ALL_FILES.flatMap((file) =>
      specifiers(file)
        .filter((name) => name === 'ai' || name.startsWith('ai/') || name.startsWith('@ai-sdk/'))
        .map(() => relative(SRC, file).split(sep)[0]),
    )
    expect(importers.length).toBeGreaterThan(0)
    expect([...new Set(importers)]).toEqual(['ai-sdk'])
  })

  test('computing modules never write to stdout or stderr (only the CLI and the Vitest and Jest reporters do)', () => {
    const writers = ALL_FILES.filter((file) => !['vitest', 'jest', 'cli'].includes(layerOf(file)))
      .filter((file) => /process\.(stdout|stderr)\.write|console\.(log|error|warn|info)\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file))
    expect(writers).toEqual([])
  })
})

describe('one writer of a scored run', () => {
  test("exactly one module writes report.json, aggregate.json and their numbered forms, and removes an earlier run's", () => {
    // RunWriter (harness/result-files.ts) knows the file names; only the one writer of a scored run calls it for reports.
    const calls = /\.(writeReport|writeAggregate|removeEarlierResults)\(/
    const writers = ALL_FILES.filter((file) => calls.test(readFileSync(file, 'utf8'))).map((file) => relative(SRC, file).split(sep).join('/'))
    expect(writers).toEqual(['report/scored-run.ts'])
    // The scan sees what it should: the writer's methods are where the names are defined.
    expect(readFileSync(join(SRC, 'harness', 'result-files.ts'), 'utf8')).toMatch(/writeReport\(report: TivarqReport/)
    // Nothing else names the files in a write of its own.
    const named = ALL_FILES.filter((file) => /write\w*\([^)]*['"`](report|aggregate)[^'"`]*\.json/.test(readFileSync(file, 'utf8')))
    expect(named.map((file) => relative(SRC, file).split(sep).join('/'))).toEqual(['harness/result-files.ts'])
  })
})

/** Every import circle among the source files (each strongly connected set of two or more files), sorted; type imports count. */
function importCircles(files: readonly string[]): string[][] {
  const edges = new Map(
    files.map((file) => [
      file,
      specifiers(file)
        .filter((s) => s.startsWith('.'))
        .map((s) => sourceOf(file, s)),
    ]),
  )
  const order = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const circles: string[][] = []
  const visit = (file: string): void => {
    order.set(file, order.size)
    low.set(file, order.get(file)!)
    stack.push(file)
    for (const next of edges.get(file) ?? []) {
      if (!edges.has(next)) continue
      if (!order.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!))
    }
    if (low.get(file) !== order.get(file)) return
    const circle: string[] = []
    let member: string
    do {
      member = stack.pop()!
      circle.push(relative(SRC, member).split(sep).join('/'))
    } while (member !== file)
    if (circle.length > 1) circles.push(circle.sort())
  }
  for (const file of files) if (!order.has(file)) visit(file)
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!))
}

/**
 * The import circles still to remove (issue 20): this list only shrinks. A new circle fails the
 * test; a removed one fails it too, until it is struck from here. Empty, it says: no circles.
 */
const KNOWN_CIRCLES: readonly (readonly string[])[] = []

describe('import circles', () => {
  const title =
    KNOWN_CIRCLES.length === 0
      ? 'no circles: no file imports itself back through others'
      : 'no file imports itself back through others, except the known circles still to remove'
  test(title, () => {
    expect(importCircles(ALL_FILES)).toEqual(KNOWN_CIRCLES)
  })

  test('the check finds a circle (the scan sees what it should)', () => {
    // Two files that import each other, written for the test: src/ itself is meant to hold none.
    const dir = mkdtempSync(join(tmpdir(), 'architecture-circle-'))
    try {
      const a = join(dir, 'a.ts')
      const b = join(dir, 'b.ts')
      writeFileSync(a, "import { b } from './b.js'\nexport const a = () => b\n")
      writeFileSync(b, "import { a } from './a.js'\nexport const b = () => a\n")
      const named = (file: string): string => relative(SRC, file).split(sep).join('/')
      expect(importCircles([a, b])).toEqual([[named(a), named(b)]])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    expect(importCircles([join(SRC, 'time-grounded', 'run.ts'), join(SRC, 'time-grounded', 'verdict.ts')])).toEqual([])
    expect(importCircles([join(SRC, 'stats', 'bootstrap.ts'), join(SRC, 'tivarq', 'score.ts')])).toEqual([])
  })
})

/** The longest a function may be, in lines from its first to its last. */
const MAX_FUNCTION_LINES = 80

/**
 * Functions allowed over the limit: only the declarative chart specs (one
 * Observable Plot literal each, read top to bottom). The test fails on an
 * entry that is no longer over, so the list cannot go stale.
 */
const LONG_FUNCTIONS_ALLOWED: readonly string[] = ['report/html/page/charts.ts familyChart', 'report/html/page/timeline.ts chart']

/** Every function of `files` over `limit` lines, as `path name (lines)`. */
function longFunctions(files: readonly string[], limit = MAX_FUNCTION_LINES): { where: string; lines: number }[] {
  const found: { where: string; lines: number }[] = []
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
        const last = source.getLineAndCharacterOfPosition(node.end).line
        const name = node.name?.getText(source) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)')
        if (last - first + 1 > limit) found.push({ where: `${relative(SRC, file).split(sep).join('/')} ${name}`, lines: last - first + 1 })
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

describe('function length', () => {
  test(`no function is over ${MAX_FUNCTION_LINES} lines, but the allowed chart specs and those still to split`, () => {
    const long = longFunctions(ALL_FILES)
    expect(long.filter((found) => !LONG_FUNCTIONS_ALLOWED.includes(found.where))).toEqual([])
    expect(LONG_FUNCTIONS_ALLOWED.filter((allowed) => !long.some((found) => found.where === allowed))).toEqual([])
  })

  test('the check measures what it should (the issue renderers, with a low limit)', () => {
    const found = longFunctions([join(SRC, 'tivarq', 'issues.ts')], 5).map((entry) => entry.where)
    expect(found).toContain('tivarq/issues.ts renderIssueLines')
    expect(found).not.toContain('tivarq/issues.ts renderIssue')
  })
})

describe('error codes', () => {
  // Each class declares its codes beside it: `interface XCodes { CODE: 'X' }`, built as `extends TimegroundedError<keyof XCodes>`.
  const declared = ALL_FILES.flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    return [...text.matchAll(/export interface (\w+)Codes \{\n([\s\S]*?)\n\}/g)].map((match) => ({
      file: relative(SRC, file),
      owner: match[1] as string,
      entries: [...(match[2] as string).matchAll(/^\s+([A-Z][A-Z_]+): '(\w+)'$/gm)].map((entry) => ({ code: entry[1] as string, owner: entry[2] as string })),
    }))
  })
  const classes = ALL_FILES.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/class (\w+)(?:<[^>]*>)? extends (TimegroundedError|OptionError)(<[^{]*>)? \{/g)].map((match) => ({
      file: relative(SRC, file),
      name: match[1] as string,
      codes: match[3] ?? '',
    })),
  )

  test('every error class is built only with its own codes, declared beside it (keyof <its name>Codes, every code naming it)', () => {
    expect(classes.length).toBeGreaterThan(35)
    const concrete = classes.filter((found) => found.name !== 'OptionError')
    const borrowing = concrete
      .filter((found) => found.codes !== `<keyof ${found.name}Codes>`)
      .map((found) => `${found.file}: class ${found.name} extends …${found.codes}`)
    expect(borrowing).toEqual([])
    const homeless = concrete
      .filter((found) => !declared.some((codes) => codes.owner === found.name && codes.file === found.file))
      .map((found) => `${found.file}: ${found.name} has no ${found.name}Codes in its own file`)
    expect(homeless).toEqual([])
    const misnamed = declared.flatMap((codes) =>
      codes.entries.filter((entry) => entry.owner !== codes.owner).map((entry) => `${codes.file}: ${codes.owner}Codes lists ${entry.code} as ${entry.owner}'s`),
    )
    expect(misnamed).toEqual([])
    const orphans = declared.filter((codes) => !classes.some((found) => found.name === codes.owner)).map((codes) => `${codes.file}: ${codes.owner}Codes`)
    expect(orphans).toEqual([])
    expect(declared.every((codes) => codes.entries.length > 0)).toBe(true)
  })

  test('no code is owned twice', () => {
    const owners = new Map<string, string[]>()
    for (const codes of declared) for (const { code } of codes.entries) owners.set(code, [...(owners.get(code) ?? []), `${codes.file} (${codes.owner})`])
    expect(owners.size).toBeGreaterThan(50)
    expect([...owners].filter(([, where]) => where.length > 1)).toEqual([])
  })

  test('the bottom layer names no class above it: errors.ts holds only the base class', () => {
    const errorsSource = readFileSync(join(SRC, 'errors.ts'), 'utf8')
    expect(specifiers(join(SRC, 'errors.ts'))).toEqual([])
    const named = [...errorsSource.matchAll(/\b([A-Z]\w*(?:Error|Fault))\b/g)].map((match) => match[1]).filter((name) => name !== 'TimegroundedError')
    expect(named).toEqual([])
    expect(errorsSource).not.toMatch(/\b[A-Z]+_[A-Z_]+:/)
  })

  test("the root entry's ErrorCodes gathers the codes of every error class its layers hold", () => {
    const index = readFileSync(join(SRC, 'index.ts'), 'utf8')
    const gathered =
      /export interface ErrorCodes\s+extends ([^{]+)\{/
        .exec(index)?.[1]
        ?.split(',')
        .map((name) => name.trim()) ?? []
    const reachable = new Set(ALLOWED.index)
    const expected = declared.filter((codes) => reachable.has(layerOf(join(SRC, codes.file)))).map((codes) => `${codes.owner}Codes`)
    expect(gathered.sort()).toEqual(expected.sort())
  })
})
