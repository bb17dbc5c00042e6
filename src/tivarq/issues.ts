/**
 * Issues as data: one shape for a problem found in what a user gave — a
 * dataset directory, a predictions file, a LongMemEval file, a corpus — and
 * the one renderer every printer of them uses. Producers collect every issue
 * (up to a bound) instead of stopping at the first, then render them once.
 */

/** One problem found in a file (or a set of entries), as data. */
export interface Issue<Code extends string = string> {
  /** Stable identifier of the kind of problem, e.g. `missing_field`. */
  code: Code
  /** The file it lies in (a dataset file name, a predictions file, a LongMemEval file), or what was checked when no file holds it. */
  file: string
  /** 1-based line of a file read line by line, or null (a problem with the whole file, or a file that is one JSON value). */
  line: number | null
  /** Position (0-based) of the entry in a file that is one JSON array of entries (LongMemEval-shaped); absent otherwise. */
  entryIndex?: number
  /** The entry's `question_id`, when it could be read; absent otherwise. */
  questionId?: string
  /** Field path inside the row or entry (e.g. `events[1].assertion.op`), or null for the whole row, entry or file. */
  path: string | null
  /** The offending value (undefined when there is none, e.g. a missing file). */
  value: unknown
  /** What is wrong and, where it helps, how to fix it. */
  message: string
}

/** Where an issue lies, as users read it: `entry 3 (question_id "q7")`, `probes_dev.jsonl:7`, or the file alone. */
function whereOf(issue: Issue): string {
  const id = issue.questionId === undefined ? undefined : `question_id ${JSON.stringify(issue.questionId)}`
  if (issue.entryIndex !== undefined) return id === undefined ? `entry ${issue.entryIndex}` : `entry ${issue.entryIndex} (${id})`
  if (id !== undefined) return id
  return issue.line === null ? issue.file : `${issue.file}:${issue.line}`
}

/** One issue as a line: `where: path: message` (`probes_dev.jsonl:7: role: missing…`, `entry 3 (question_id "q7"): question_date: …`). */
export function renderIssue(issue: Issue): string {
  return issue.path === null ? `${whereOf(issue)}: ${issue.message}` : `${whereOf(issue)}: ${issue.path}: ${issue.message}`
}

/** How the closing line of a cut list tells the reader to see the rest (e.g. raise `--max-issues`); none when the bound is fixed. */
export interface RenderIssuesOptions {
  /** Put before every line, e.g. two spaces inside an error message. @default '' */
  indent?: string
  /** Said after the count of issues not shown, e.g. ``raise `--max-issues` to list them``. @default nothing */
  howToSeeMore?: string
}

/** Issues one per line, plus a closing line counting those that were cut (if any). */
export function renderIssueLines(issues: readonly Issue[], omittedIssues = 0, options: RenderIssuesOptions = {}): string {
  const indent = options.indent ?? ''
  const lines = issues.map((issue) => `${indent}${renderIssue(issue)}`)
  if (omittedIssues > 0) {
    const more = `… and ${omittedIssues} more ${omittedIssues === 1 ? 'issue' : 'issues'} not shown`
    lines.push(`${indent}${more}${options.howToSeeMore === undefined ? '' : ` (${options.howToSeeMore})`}`)
  }
  return lines.join('\n')
}

/** Keeps the first `max` issues and counts the rest, so a wholly wrong file does not fill memory with messages. */
export class IssueCollector<Code extends string = string> {
  readonly issues: Issue<Code>[] = []
  omitted = 0
  constructor(private readonly max: number) {}

  push(issue: Issue<Code>): void {
    if (this.issues.length < this.max) this.issues.push(issue)
    else this.omitted++
  }

  /** Every issue found, kept or not. */
  get count(): number {
    return this.issues.length + this.omitted
  }
}

/** A dataset's issues one per line, plus a closing line counting those that were cut (if any). */
export function renderDatasetIssues(issues: readonly Issue[], omittedIssues = 0): string {
  return renderIssueLines(issues, omittedIssues, { howToSeeMore: 'raise `maxIssues` or `--max-issues` to list them' })
}
