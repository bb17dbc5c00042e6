/**
 * The HTML page of a `run`: its title, identity and file. Its own file because
 * two steps write it, the finished run (output.ts) and the interrupt (repetitions.ts).
 */
import { join } from 'node:path'
import type { PredictionRow } from '../../../tivarq/results.js'
import type { TivarqReport } from '../../../tivarq/report-shape.js'
import { describeVariant } from '../../../tivarq/variant.js'
import { DEFAULT_HTML_FILE } from '../../../harness/result-files.js'
import { runPageInput } from '../../../report/html/model/input.js'
import { type HtmlOption, writeCliPage } from '../../html.js'
import type { LoadedRunSplit, OpenRun } from './open-run.js'
import type { RunSettings } from './settings.js'

/** What the page and the summary call the data. */
function dataNameOf(settings: RunSettings, split: LoadedRunSplit): string {
  if (settings.episodes !== undefined) return `regression episodes in ${settings.episodes}`
  if (split.variant !== null) return describeVariant(split.variant)
  return settings.dataset === undefined ? 'TIVARQ v1' : `TIVARQ data in ${settings.dataset}`
}

/** Writes the HTML report of some rows, with the spread of all repetitions; returns the line that says where it went (null when none). */
export type PageWriter = (rows: readonly PredictionRow[], report: TivarqReport, all: readonly TivarqReport[]) => string | null

export function pageWriter(run: OpenRun, html: HtmlOption): PageWriter {
  const { settings, split, manifest } = run
  const htmlPath = html === false ? null : (html ?? join(run.writer.dir, DEFAULT_HTML_FILE))
  const store = run.pool.info().name
  const dataName = dataNameOf(settings, split)
  return (rows, report, all) => {
    if (htmlPath === null) return null
    return writeCliPage(
      'run',
      htmlPath,
      runPageInput({
        title: `timegrounded — ${store} on ${dataName} ${settings.split}`,
        identity: {
          subject: { label: 'store', value: store },
          data: { name: dataName, revision: manifest.dataset_revision, split: settings.split, track: settings.track },
        },
        report,
        rows,
        timelines: { episodes: split.episodes, probes: split.probes },
        repetitions: all,
      }),
    )
  }
}
