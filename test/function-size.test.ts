/**
 * Functions that do one job: none in src/ runs over 80 lines, counted from the
 * line its declaration starts on to the line its body closes on (a nested
 * function counts inside the one that holds it). The only exceptions are
 * declarative chart specifications, which are one data literal read top to
 * bottom; each is named here with the reason.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'

const SRC = fileURLToPath(new URL('../src/', import.meta.url))
const LIMIT = 80

/** `file:function` → why it may run over the limit. */
const ALLOWED_LONG: Record<string, string> = {
  [`report${sep}html${sep}page${sep}charts.ts:familyChart`]: 'one Observable Plot specification (marks listed in drawing order)',
  [`report${sep}html${sep}page${sep}timeline.ts:chart`]: 'one Observable Plot specification (marks listed in drawing order)',
}

interface LongFunction {
  where: string
  lines: number
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : []
  })
}

/** The name a reader would search for: the declaration's own, or the variable or property it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source)
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source)
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  return `(anonymous at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1})`
}

/** Every function with a body in `text` longer than `limit` lines, as `label:name`. */
function longFunctions(label: string, text: string, limit = LIMIT): LongFunction[] {
  const source = ts.createSourceFile(label, text, ts.ScriptTarget.Latest, true)
  const found: LongFunction[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const lines = last - first + 1
      if (lines > limit) found.push({ where: `${label}:${nameOf(node as ts.FunctionLikeDeclaration, source)}`, lines })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('function size', () => {
  test(`no function in src/ runs over ${LIMIT} lines, outside the named chart specifications`, () => {
    const over = sourceFiles(SRC).flatMap((file) => longFunctions(relative(SRC, file), readFileSync(file, 'utf8')))
    const unexplained = over.filter(({ where }) => !(where in ALLOWED_LONG)).map(({ where, lines }) => `${where} (${lines} lines)`)
    expect(unexplained).toEqual([])
  })

  test('every allowed exception still exists and is still long (the list does not outlive its reason)', () => {
    const over = new Set(sourceFiles(SRC).flatMap((file) => longFunctions(relative(SRC, file), readFileSync(file, 'utf8')).map(({ where }) => where)))
    expect(Object.keys(ALLOWED_LONG).filter((where) => !over.has(where))).toEqual([])
  })

  test('the count sees declarations, arrow functions, methods and nested functions, and stops at the limit', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join('\n')
    // A function of exactly LIMIT lines: its two brace lines plus LIMIT - 2 statements.
    const text = [
      `function fits() {\n${body(LIMIT - 2)}\n}`,
      `function tooLong() {\n${body(LIMIT - 1)}\n}`,
      `const arrow = () => {\n${body(LIMIT)}\n}`,
      `class Holder {\n  method() {\n${body(LIMIT)}\n  }\n}`,
      `function outer() {\n  function inner() {\n${body(LIMIT)}\n  }\n  return inner\n}`,
    ].join('\n')
    expect(longFunctions('sample.ts', text).map(({ where, lines }) => `${where} ${lines}`)).toEqual([
      `sample.ts:tooLong ${LIMIT + 1}`,
      `sample.ts:arrow ${LIMIT + 2}`,
      `sample.ts:method ${LIMIT + 2}`,
      `sample.ts:outer ${LIMIT + 5}`,
      `sample.ts:inner ${LIMIT + 2}`,
    ])
  })
})
