/**
 * `checkCorpus`: the corpus rules the bundled corpora follow, checked on any
 * LongMemEval-shaped file (a user's or a peer's), entry by entry and rule by
 * rule, with how many entries carry a machine-checkable gold. Pure; the CLI's
 * `corpus --check FILE` prints `renderCorpusCheck`.
 */
import type { LongMemEvalEntry } from '../longmemeval.js'
import {
  dateFormatFindings,
  dateWeekdayFindings,
  goldSessionFindings,
  messageDateFindings,
  questionDateFindings,
  type RuleFinding,
  sessionAfterQuestionFindings,
  sessionOrderFindings,
  speakerWeekdayFindings,
} from './rules.js'

/** The rules `checkCorpus` reports, by id. */
export type CorpusCheckRule =
  | 'message-date'
  | 'question-date'
  | 'date-format'
  | 'weekday'
  | 'session-after-question'
  | 'session-order'
  | 'gold-session-unlabelled'

/** Each rule: its id, what it applies to, what it asks, and the function that checks it. */
export const CORPUS_CHECK_RULES: readonly { rule: CorpusCheckRule; applies_to: string; asks: string; check: (entry: LongMemEvalEntry) => RuleFinding[] }[] = [
  {
    rule: 'message-date',
    applies_to: 'messages',
    asks: 'no absolute date: no year, numeric date, month name, day-of-month ordinal or fixed-date holiday',
    check: messageDateFindings,
  },
  {
    rule: 'question-date',
    applies_to: 'questions',
    asks: 'no year and no numeric date (calendar words may name the instant: "at the start of March")',
    check: questionDateFindings,
  },
  { rule: 'date-format', applies_to: 'dates', asks: 'every date reads as YYYY/MM/DD (Ddd) HH:MM, a real day and time', check: dateFormatFindings },
  {
    rule: 'weekday',
    applies_to: 'dates and messages',
    asks: 'every weekday matches its day: the (Ddd) of a date, and "…, a Friday" after a relative day',
    check: (entry) => [...dateWeekdayFindings(entry), ...speakerWeekdayFindings(entry)],
  },
  { rule: 'session-after-question', applies_to: 'sessions', asks: 'no session dated after its question', check: sessionAfterQuestionFindings },
  { rule: 'session-order', applies_to: 'sessions', asks: 'haystack dates in chronological order', check: sessionOrderFindings },
  {
    rule: 'gold-session-unlabelled',
    applies_to: 'gold sessions',
    asks: 'every answer_session_ids session is in the haystack and has a has_answer turn',
    check: goldSessionFindings,
  },
]

/** One broken rule in one entry. */
export interface CorpusCheckFinding {
  rule: CorpusCheckRule
  question_id: string
  /** Position of the entry in the file, 0-based. */
  entry: number
  /** The field it sits in, e.g. `haystack_dates[2]`. */
  where: string
  message: string
}

/** What `checkCorpus` found (JSON-ready). */
export interface CorpusCheck {
  entries: number
  /** Entries carrying `machine_gold`: the ones the deterministic judge can grade. */
  entries_with_machine_gold: number
  /** Each rule with how many entries break it. */
  rules: { rule: CorpusCheckRule; applies_to: string; asks: string; entries_breaking: number }[]
  findings: CorpusCheckFinding[]
  /** True when no entry breaks any rule (missing machine_gold is counted, not a broken rule). */
  ok: boolean
}

/**
 * Checks every entry against every rule of `CORPUS_CHECK_RULES`. The entries
 * are those a loader validated (`loadLongMemEval(file).items`), so their
 * shape is known good; what is checked is what the shape cannot say.
 */
export function checkCorpus(items: readonly LongMemEvalEntry[]): CorpusCheck {
  const findings: CorpusCheckFinding[] = []
  items.forEach((entry, index) => {
    for (const { rule, check } of CORPUS_CHECK_RULES) {
      for (const finding of check(entry)) findings.push({ rule, question_id: entry.question_id, entry: index, ...finding })
    }
  })
  const rules = CORPUS_CHECK_RULES.map(({ rule, applies_to, asks }) => ({
    rule,
    applies_to,
    asks,
    entries_breaking: new Set(findings.filter((f) => f.rule === rule).map((f) => f.entry)).size,
  }))
  return {
    entries: items.length,
    entries_with_machine_gold: items.filter((entry) => entry.machine_gold !== undefined).length,
    rules,
    findings,
    ok: findings.length === 0,
  }
}

const RULE_WIDTH = Math.max(...CORPUS_CHECK_RULES.map(({ rule }) => rule.length))

/** The report `timegrounded corpus --check` prints: each entry with its broken rules, each rule with its count, the machine-checkable gold, a last line. */
export function renderCorpusCheck(check: CorpusCheck, items: readonly LongMemEvalEntry[], name: string): string {
  const lines = [`Corpus check of ${name}: ${check.entries} ${check.entries === 1 ? 'entry' : 'entries'}`, '', 'Entries:']
  const idWidth = Math.max(0, ...items.map((entry) => entry.question_id.length))
  items.forEach((entry, index) => {
    const own = check.findings.filter((f) => f.entry === index)
    if (own.length === 0) lines.push(`  ${entry.question_id.padEnd(idWidth)}  ok`)
    own.forEach((finding, i) => {
      lines.push(`  ${(i === 0 ? entry.question_id : '').padEnd(idWidth)}  ${finding.rule.padEnd(RULE_WIDTH)}  ${finding.message}`)
    })
  })
  lines.push('', 'Rules (entries breaking each):')
  for (const rule of check.rules)
    lines.push(`  ${rule.rule.padEnd(RULE_WIDTH)}  ${String(rule.entries_breaking).padStart(3)}  ${rule.applies_to}: ${rule.asks}`)
  const withGold = check.entries_with_machine_gold
  const without = check.entries - withGold
  lines.push(
    '',
    `Machine-checkable gold: ${withGold} of ${check.entries} entries carry machine_gold` +
      (without === 0
        ? '.'
        : `; the deterministic judge cannot grade the other ${without} (judge them with \`--judge llm\`, add machine_gold, or run with \`--unjudged skip\`).`),
  )
  const broken = check.rules.filter((rule) => rule.entries_breaking > 0).length
  const entriesBreaking = new Set(check.findings.map((f) => f.entry)).size
  lines.push(
    check.ok
      ? `Every rule holds in every entry.`
      : `${broken} of ${check.rules.length} rules broken, in ${entriesBreaking} of ${check.entries} ${check.entries === 1 ? 'entry' : 'entries'}.`,
  )
  return lines.join('\n')
}
