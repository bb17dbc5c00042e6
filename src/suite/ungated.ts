/**
 * A run with no gate in it (no timegrounded reporter: an inline Vitest
 * project that does not extend the config holding the plugin, a config
 * without the plugin, `jest --reporters=default`, an editor that runs tests
 * with reporters of its own). The suite still runs and judges every probe,
 * but strictly (`strictDecision`), and says so once, with the runner's fix.
 */

/** What a shell knows about its run's gate, in its own words. */
export interface GateAbsence {
  /** Why no gate runs, as the runner sees it ("no timegrounded reporter in this Jest run"). */
  why: string
  /** The fix, with the exact config line. */
  fix: string
}

/** The note a test file prints once when no gate will judge its suite. */
export function ungatedNotice(suite: string, absence: GateAbsence): string {
  return (
    `timegrounded [${suite}] the gate does not run: ${absence.why}. Nothing is scored, gated or recorded, and every probe is judged strictly: ` +
    `only a right answer passes (a known failure of the baseline, an unsupported or a flaky probe fails its test). Fix: ${absence.fix}`
  )
}
