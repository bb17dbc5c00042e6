/** How far a time-grounded result over a given number of questions goes: the sentence every rendering ends with. */

const NUMBER_NAMES = ['Zero', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve']

/**
 * Questions at which two systems whose accuracies differ by 10 and by 5 points
 * were told apart (paired 95% interval excluding zero) in 80% of runs, their
 * errors independent: measured by scripts/timegrounded-power.js (README, "How
 * many questions are enough").
 */
export const QUESTIONS_TO_TELL_APART = { tenPoints: 360, fivePoints: 1440 } as const

/** How far a result over this many questions goes: "Twelve questions is a probe, not a ranking." below 360, what it can tell apart from there. */
export function probeCaveat(questions: number): string {
  const count = questions < NUMBER_NAMES.length ? (NUMBER_NAMES[questions] as string) : String(questions)
  const { tenPoints, fivePoints } = QUESTIONS_TO_TELL_APART
  if (questions < tenPoints) {
    return `${count} question${questions === 1 ? '' : 's'} is a probe, not a ranking: it shows whether timestamps are honoured, and cannot rank systems that honour them.`
  }
  const measured = (points: number, at: number): string =>
    `as measured, two systems ${points} points apart are told apart in 80% of runs from ${at.toLocaleString('en')} questions when their errors are independent`
  return questions < fivePoints
    ? `${count} questions can rank systems whose accuracies differ by about 10 points or more (${measured(10, tenPoints)}); 5 points takes about ${fivePoints.toLocaleString('en')}.`
    : `${count} questions can rank systems whose accuracies differ by about 5 points or more (${measured(5, fivePoints)}); smaller differences take more.`
}
