/**
 * Which of a suite's tests Jest will run, read from jest-circus's run state
 * so that `-t`, `.only` and `.skip` start only the episodes they keep. The
 * state sits on the global object under an unexported symbol; this follows
 * circus's own rule (a skipped block or test, focus, `testNamePattern` on
 * the names joined by spaces). When the state cannot be read, every test
 * counts as selected: unselected episodes then run for nothing, and results
 * stay right.
 */

/** The parts of circus's describe blocks and tests read here. */
interface CircusBlock {
  type: 'describeBlock'
  name: string
  mode?: string
  parent?: CircusBlock
  children: (CircusBlock | CircusTest)[]
}
interface CircusTest {
  type: 'test'
  name: string
  mode?: string
  parent: CircusBlock
}
interface CircusState {
  currentDescribeBlock?: CircusBlock
  hasFocusedTests?: boolean
  testNamePattern?: RegExp | null
}

function circusState(): CircusState | null {
  const key = Object.getOwnPropertySymbols(globalThis).find((symbol) => symbol.description === 'JEST_STATE_SYMBOL')
  if (key === undefined) return null
  const state = (globalThis as Record<symbol, unknown>)[key]
  return typeof state === 'object' && state !== null ? (state as CircusState) : null
}

/** The describe block being declared now (call inside a `describe` callback), or null when circus's state is not readable. */
export function currentBlock(): unknown {
  const block = circusState()?.currentDescribeBlock
  return block?.type === 'describeBlock' ? block : null
}

/** A test's id as circus matches `-t` against it: every block's name but the root's, and the test's, joined by spaces. */
function testId(test: CircusTest): string {
  const names = [test.name]
  for (let block: CircusBlock | undefined = test.parent; block?.parent !== undefined; block = block.parent) names.unshift(block.name)
  return names.join(' ')
}

function blockSkipped(block: CircusBlock | undefined): boolean {
  for (let at = block; at !== undefined; at = at.parent) if (at.mode === 'skip') return true
  return false
}

/**
 * Whether each test (by name) under `block` will run. Call it once tests run
 * (in a `beforeAll`): by then circus knows the pattern and the focus.
 */
export function selectionOf(block: unknown): (testName: string) => boolean {
  const state = circusState()
  const all = () => true
  if (state === null || block === null || typeof block !== 'object') return all
  const selected = new Set<string>()
  const visit = (node: CircusBlock): void => {
    for (const child of node.children ?? []) {
      if (child.type === 'describeBlock') {
        visit(child)
        continue
      }
      if (child.type !== 'test') continue
      const skipped =
        child.mode === 'skip' ||
        child.mode === 'todo' ||
        blockSkipped(child.parent) ||
        (state.hasFocusedTests === true && child.mode !== 'only') ||
        (state.testNamePattern instanceof RegExp && !state.testNamePattern.test(testId(child)))
      if (!skipped) selected.add(child.name)
    }
  }
  try {
    visit(block as CircusBlock)
  } catch {
    return all
  }
  return (name) => selected.has(name)
}
