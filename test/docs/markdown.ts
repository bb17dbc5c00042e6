/**
 * Reading the project's Markdown for the doc tests: which files are docs, their
 * code blocks, the shell commands in them, their headings as GitHub anchors,
 * and their links. Plain functions over text; nothing here runs a command.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '')

/** The docs a user reads, README.md first, then `docs/` and the examples' READMEs (paths relative to the repository). */
export const DOC_FILES: string[] = ['README.md', ...markdownUnder('docs', () => true), ...markdownUnder('examples', (name) => name === 'README.md')]

function markdownUnder(dir: string, keep: (name: string) => boolean): string[] {
  // A walk that never enters node_modules or dist: an example installed in place links timegrounded back to this
  // repository (file:../..), and a recursive readdir would follow that link round and round.
  const found: string[] = []
  const walk = (relative: string): void => {
    for (const entry of readdirSync(join(REPO, relative), { withFileTypes: true })) {
      const path = join(relative, entry.name)
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'dist') walk(path)
      else if (entry.isFile() && entry.name.endsWith('.md') && keep(entry.name)) found.push(path)
    }
  }
  walk(dir)
  return found.sort()
}

export function readDoc(file: string): string {
  return readFileSync(join(REPO, file), 'utf8')
}

// ---------------------------------------------------------------- code blocks

/** A fenced code block: its language, the line of its opening fence, its lines, and an HTML comment just above it. */
export interface CodeBlock {
  language: string
  line: number
  body: { text: string; line: number }[]
  /** The text of a `<!-- … -->` line directly above the fence (blank lines between allowed), else null. */
  marker: string | null
}

export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n')
  const blocks: CodeBlock[] = []
  let index = 0
  while (index < lines.length) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[index]!)
    index++
    if (open === null) continue
    const [, indent = '', fence = '```', language = ''] = open
    const line = index
    const closing = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`)
    const body: { text: string; line: number }[] = []
    while (index < lines.length && !closing.test(lines[index]!)) {
      body.push({ text: lines[index]!.startsWith(indent) ? lines[index]!.slice(indent.length) : lines[index]!.trimStart(), line: index + 1 })
      index++
    }
    index++ // the closing fence
    let above = line - 2
    while (above >= 0 && lines[above]!.trim() === '') above--
    const comment = above >= 0 ? /^\s*<!--\s*(.*?)\s*-->\s*$/.exec(lines[above]!) : null
    blocks.push({ language: language.toLowerCase(), line, body, marker: comment?.[1] ?? null })
  }
  return blocks
}

/** `markdown` with its fenced code blocks blanked (line numbers kept), for reading prose only. */
export function prose(markdown: string): string {
  const lines = markdown.split('\n')
  for (const block of codeBlocks(markdown)) {
    for (const { line } of block.body) lines[line - 1] = ''
    lines[block.line - 1] = ''
    const close = (block.body.at(-1)?.line ?? block.line) + 1
    if (close <= lines.length) lines[close - 1] = ''
  }
  return lines.join('\n')
}

// ---------------------------------------------------------------- shell commands

/** One shell command found in a Markdown code block. */
export interface DocumentedCommand {
  /** The command as written, comments and `$ ` prompt removed; a quoted argument may span lines. */
  command: string
  /** 1-based line where it starts. */
  line: number
  /** The lines a `console`-style block prints under it (`$ ` blocks only), else null. */
  output: string[] | null
}

const SHELL_BLOCKS = new Set(['sh', 'bash', 'shell', 'zsh'])
// In these, only `$ ` lines are commands; the rest is what they print.
const PROMPT_BLOCKS = new Set(['console', 'text', ''])

/**
 * Walks `text` as a shell quotes it (backslash escapes outside single quotes),
 * calling `visit` on each character outside quotes: `visit` returns how many
 * more characters to skip, or 'stop'. Says where it stopped and whether a quote
 * is left open at the end.
 */
function scanShell(text: string, visit?: (char: string, i: number) => number | 'stop' | undefined): { stoppedAt: number | null; quoteOpen: boolean } {
  let quote: string | null = null
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (char === '\\' && quote !== "'") i++
    else if (quote === null && (char === '"' || char === "'")) quote = char
    else if (char === quote) quote = null
    else if (quote === null && visit !== undefined) {
      const step = visit(char, i)
      if (step === 'stop') return { stoppedAt: i, quoteOpen: false }
      if (step !== undefined) i += step
    }
  }
  return { stoppedAt: null, quoteOpen: quote !== null }
}

/** Whether `text` leaves a quote open (a command continues on the next line). */
function quoteOpen(text: string): boolean {
  return scanShell(text).quoteOpen
}

/** `text` without a trailing ` # comment` that sits outside quotes. */
function withoutComment(text: string): string {
  const { stoppedAt } = scanShell(text, (char, i) => (char === '#' && (i === 0 || /\s/.test(text[i - 1]!)) ? 'stop' : undefined))
  return (stoppedAt === null ? text : text.slice(0, stoppedAt)).trimEnd()
}

/** `a && b`, `a; b` and `a || b` are separate commands (separators inside quotes are not). */
function splitChain(text: string): string[] {
  const parts: string[] = []
  let start = 0
  scanShell(text, (char, i) => {
    if (!(text.startsWith('&&', i) || text.startsWith('||', i) || char === ';')) return undefined
    parts.push(text.slice(start, i))
    const skip = char === ';' ? 0 : 1
    start = i + skip + 1
    return skip
  })
  parts.push(text.slice(start))
  return parts.map((part) => part.trim()).filter((part) => part !== '')
}

/**
 * Every shell command in the code blocks of `markdown`, in order: every line of
 * a `sh`/`bash`/`shell` block, and the `$ ` lines of `console`, `text` and
 * unlabelled blocks (with what they print under them).
 */
export function documentedCommands(markdown: string): DocumentedCommand[] {
  const found: DocumentedCommand[] = []
  for (const { language, body } of codeBlocks(markdown)) {
    const shell = SHELL_BLOCKS.has(language)
    if (!shell && !PROMPT_BLOCKS.has(language)) continue
    let current: DocumentedCommand[] | null = null
    for (let at = 0; at < body.length; at++) {
      const { text, line } = body[at]!
      const prompted = text.startsWith('$ ')
      if (!prompted && !shell) {
        if (current !== null) for (const command of current) command.output!.push(text)
        continue
      }
      let command = prompted ? text.slice(2) : text
      if (command.trim() === '' || command.trimStart().startsWith('#')) continue
      while ((quoteOpen(command) || command.endsWith('\\')) && at + 1 < body.length) command += `\n${body[++at]!.text}`
      current = splitChain(withoutComment(command)).map((part) => ({ command: part, line, output: prompted ? [] : null }))
      found.push(...current)
    }
  }
  for (const command of found) if (command.output !== null) while (command.output.at(-1) === '') command.output.pop()
  return found
}

// ---------------------------------------------------------------- headings and links

/** The anchor GitHub gives a heading: its text lower-cased, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link reads as its text
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** Every anchor of `markdown`'s headings; a repeated one gets `-1`, `-2`, … as on GitHub. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const result = new Set<string>()
  for (const line of prose(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (heading === null) continue
    const base = slug(heading[1]!)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    result.add(count === 0 ? base : `${base}-${count}`)
  }
  return result
}

/** A relative link of a Markdown file: where it points, and the line it is on. */
export interface DocLink {
  target: string
  line: number
}

/** The links of `markdown` outside code (fenced blocks and inline code spans), external ones left out. */
export function relativeLinks(markdown: string): DocLink[] {
  // Blank inline code spans, keeping newlines so that line numbers hold.
  const text = prose(markdown).replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, ' '))
  const links: DocLink[] = []
  for (const match of text.matchAll(/(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
    links.push({ target, line: text.slice(0, match.index).split('\n').length })
  }
  return links
}
