/**
 * The boxed tables of the terminal report (families, repetitions, stores side
 * by side). They were drawn by cli-table3 0.6.5 with no rule between rows;
 * this draws the same bytes (test/report/table.test.ts holds it to cli-table3)
 * without loading it: it and string-width cost more to import and to run than
 * the rest of the report (docs/design.md).
 */
import { lineWidth, SGR_SEQUENCE } from './text-width.js'

/** Where a cell's text sits in its column. */
export type ColumnAlign = 'left' | 'right' | 'center'

/** A table to draw: a head row, body rows as long as it, one alignment per column. */
export interface TableSpec {
  head: readonly string[]
  rows: readonly (readonly string[])[]
  /** One per column. @default 'left' for a column without one */
  align?: readonly ColumnAlign[]
  /** Head text in cyan and the rules in grey. @default false */
  color?: boolean
}

/** An SGR opening and the sequence that ends it. */
interface Paint {
  open: string
  close: string
}

const HEAD_PAINT: Paint = { open: '\u001b[36m', close: '\u001b[39m' }
const BORDER_PAINT: Paint = { open: '\u001b[90m', close: '\u001b[39m' }
const RESET_FOREGROUND = '\u001b[39m'
const RESET_BACKGROUND = '\u001b[49m'

/** The text styles a cell's colour carries over a line break, by the sequence that sets (true) or ends (false) each. */
const STYLE_SEQUENCES = new Map<string, { style: string; on: boolean }>()
const STYLE_CODES: Record<string, Paint> = {
  bold: { open: '\u001b[1m', close: '\u001b[22m' },
  italics: { open: '\u001b[3m', close: '\u001b[23m' },
  underline: { open: '\u001b[4m', close: '\u001b[24m' },
  inverse: { open: '\u001b[7m', close: '\u001b[27m' },
  strikethrough: { open: '\u001b[9m', close: '\u001b[29m' },
}
for (const [style, { open, close }] of Object.entries(STYLE_CODES)) {
  STYLE_SEQUENCES.set(open, { style, on: true })
  STYLE_SEQUENCES.set(close, { style, on: false })
}

/** The SGR state at the end of a line: the last foreground and background sequences, and each style in the order first set. */
interface SgrState {
  foreground?: string
  background?: string
  styles: Map<string, boolean>
}

function readSgrState(line: string): SgrState {
  const state: SgrState = { styles: new Map() }
  for (const [sequence, params] of line.matchAll(SGR_SEQUENCE)) {
    const code = params ? Number.parseInt((params as string).split(';')[0] as string, 10) : 0
    if ((code >= 30 && code <= 39) || (code >= 90 && code <= 97)) state.foreground = sequence
    else if ((code >= 40 && code <= 49) || (code >= 100 && code <= 107)) state.background = sequence
    else if (code === 0) {
      state.foreground = undefined
      state.background = undefined
      state.styles.clear()
    } else {
      const style = STYLE_SEQUENCES.get(sequence)
      if (style !== undefined) state.styles.set(style.style, style.on)
    }
  }
  return state
}

/** What ends the state's colour and styles, so it does not bleed into the border. */
function closing(state: SgrState): string {
  let text = ''
  for (const [style, on] of state.styles) if (on) text += (STYLE_CODES[style] as Paint).close
  if (state.background !== undefined && state.background !== RESET_BACKGROUND) text += RESET_BACKGROUND
  if (state.foreground !== undefined && state.foreground !== RESET_FOREGROUND) text += RESET_FOREGROUND
  return text
}

/** What starts the state again on the next line of the cell (the styles in reverse order, as cli-table3 wrote them). */
function reopening(state: SgrState): string {
  let styles = ''
  for (const [style, on] of state.styles) if (on) styles = (STYLE_CODES[style] as Paint).open + styles
  const background = state.background !== undefined && state.background !== RESET_BACKGROUND ? state.background : ''
  const foreground = state.foreground !== undefined && state.foreground !== RESET_FOREGROUND ? state.foreground : ''
  return foreground + background + styles
}

/** A cell's lines, each closing the colour it leaves open and reopening what the line before left open. */
function cellLines(text: string): string[] {
  let carried: SgrState = { styles: new Map() }
  return text.split('\n').map((raw) => {
    const line = reopening(carried) + raw
    carried = readSgrState(line)
    return line + closing(carried)
  })
}

interface Cell {
  lines: string[]
  widths: number[]
}

function layOut(text: string): Cell {
  // A cell of one line with no escape sequence (nearly every one) carries no colour over: it is its own only line.
  if (!text.includes('\n') && !text.includes('\u001b')) return { lines: [text], widths: [lineWidth(text)] }
  const lines = cellLines(text)
  return { lines, widths: lines.map(lineWidth) }
}

function paint(paint: Paint | null, text: string): string {
  return paint === null ? text : paint.open + text.replaceAll(paint.close, paint.open) + paint.close
}

function aligned(text: string, width: number, room: number, align: ColumnAlign): string {
  const gap = room - width
  if (align === 'right') return ' '.repeat(gap) + text
  if (align === 'center') return ' '.repeat(Math.floor(gap / 2)) + text + ' '.repeat(gap - Math.floor(gap / 2))
  return text + ' '.repeat(gap)
}

/** A rule across the table: each column's corner and run painted on its own. */
function rule(widths: readonly number[], corners: { left: string; between: string; right: string }, border: Paint | null): string {
  return widths
    .map((width, column) => {
      const start = column === 0 ? corners.left : corners.between
      const end = column === widths.length - 1 ? corners.right : ''
      return paint(border, start + '─'.repeat(width) + end)
    })
    .join('')
}

/** One printed line of a row: every column's cell line (blank below its last), between painted bars. */
function rowLine(
  row: readonly Cell[],
  lineIndex: number,
  widths: readonly number[],
  align: readonly ColumnAlign[],
  paints: { border: Paint | null; text: Paint | null },
): string {
  let out = ''
  for (const [column, cell] of row.entries()) {
    const width = widths[column] as number
    const text =
      lineIndex < cell.lines.length
        ? ` ${aligned(cell.lines[lineIndex] as string, cell.widths[lineIndex] as number, width - 2, align[column] ?? 'left')} `
        : ' '.repeat(width)
    out += paint(paints.border, '│') + paint(paints.text, text)
    if (column === row.length - 1) out += paint(paints.border, '│')
  }
  return out
}

/** The table as text: a top rule, the head row, the body rows with no rule between them, a bottom rule. Pure. */
export function renderTable(spec: TableSpec): string {
  const columns = spec.head.length
  if (columns === 0) throw new Error('renderTable: the head has no column')
  for (const [index, row] of spec.rows.entries()) {
    if (row.length !== columns) throw new Error(`renderTable: body row ${index + 1} has ${row.length} cells, the head ${columns}`)
  }
  const grid = [spec.head, ...spec.rows].map((row) => row.map(layOut))
  const widths = spec.head.map((_, column) => 2 + Math.max(0, ...grid.map((row) => Math.max(...(row[column] as Cell).widths))))
  const border = spec.color === true ? BORDER_PAINT : null
  const head = spec.color === true ? HEAD_PAINT : null
  const align = spec.align ?? []
  const lines = [rule(widths, { left: '┌', between: '┬', right: '┐' }, border)]
  for (const [index, row] of grid.entries()) {
    const height = Math.max(...row.map((cell) => cell.lines.length))
    for (let line = 0; line < height; line++) lines.push(rowLine(row, line, widths, align, { border, text: index === 0 ? head : null }))
  }
  lines.push(rule(widths, { left: '└', between: '┴', right: '┘' }, border))
  return lines.join('\n')
}
