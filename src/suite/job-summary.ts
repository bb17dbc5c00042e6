/**
 * The CI job summary (GitHub Actions' `GITHUB_STEP_SUMMARY`), written one way
 * for every caller: `run`, `merge` and both reporters. The summary repeats a
 * verdict the run has already printed, so one that cannot be written is a
 * warning naming the file, never a changed verdict or exit code.
 */
import { appendFileSync } from 'node:fs'

/**
 * Append `markdown` to the job summary file (`GITHUB_STEP_SUMMARY` unless `file` is given); nothing when
 * there is none. Returns the warning to print when the file cannot be written, else null.
 */
export function appendJobSummary(markdown: string, file: string | undefined = process.env.GITHUB_STEP_SUMMARY): string | null {
  if (file === undefined || file === '') return null
  try {
    appendFileSync(file, markdown)
    return null
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return `timegrounded: warning: could not write the job summary to ${file} (${reason}); the run's result stands`
  }
}
