/**
 * The framework-free core never imports Vitest: everything reachable from the
 * `timegrounded` entry point (src/index.ts) must load without Vitest installed,
 * and computing modules never write to the process streams.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const SRC = fileURLToPath(new URL('../src/', import.meta.url))
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g

function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(IMPORT)].map((match) => match[1] ?? match[2] ?? match[3]).filter((s): s is string => s !== undefined)
}

function sourceOf(from: string, specifier: string): string {
  return resolve(dirname(from), specifier).replace(/\.js$/, '.ts')
}

/** Every source file reachable from `entry` through relative imports, with the bare packages each imports. */
function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  const pending = [entry]
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

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : []
  })
}

describe('the framework-free core', () => {
  const graph = importGraph(join(SRC, 'index.ts'))

  test('reaches the modules it should (the scan follows imports)', () => {
    const reached = [...graph.keys()].map((file) => relative(SRC, file))
    expect(reached).toEqual(
      expect.arrayContaining(['tivarq/score.ts', 'harness/runner.ts', 'adapters/command.ts', 'timegrounded/run.ts', 'stats/bootstrap.ts']),
    )
  })

  test('never imports Vitest or anything under src/vitest/', () => {
    const offenders: string[] = []
    for (const [file, bare] of graph) {
      const where = relative(SRC, file)
      if (where.startsWith('vitest/')) offenders.push(`${where} is reachable from src/index.ts`)
      for (const name of bare) if (name === 'vitest' || name.startsWith('vitest/') || name.startsWith('@vitest/')) offenders.push(`${where} imports ${name}`)
    }
    expect(offenders).toEqual([])
  })

  test('computing modules never write to stdout or stderr (only the CLI and the Vitest reporter do)', () => {
    const writers = ['tivarq', 'timegrounded', 'stats', 'adapters', 'harness', 'chat', 'report']
      .flatMap((dir) => filesUnder(join(SRC, dir)))
      .filter((file) => /process\.(stdout|stderr)\.write|console\.(log|error|warn|info)\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file))
    expect(writers).toEqual([])
  })
})
