/**
 * A table row for one probe whose id is a button, and the hidden row under it that opens into the
 * probe's episode timeline on the first click (built then, not with the page): the failing probes'
 * table and a comparison's fixed and broken probes both list probes this way.
 */
import type { EpisodeView, FailingProbe } from '../page-data.js'
import { el } from './dom.js'
import { timeline } from './timeline.js'

/** The probe's row, its detail row and the button that opens it. */
export interface TimelineRow {
  row: HTMLTableRowElement
  detail: HTMLTableRowElement
  button: HTMLButtonElement
}

/** `cells` follow the button's cell; `attributes` go on the row (its data- attributes, for filters and tests). */
export function timelineRow(
  probe: FailingProbe,
  episode: EpisodeView | undefined,
  attributes: Record<string, string>,
  cells: readonly HTMLElement[],
): TimelineRow {
  const detailId = `tg-timeline-${probe.id}`
  const button = el('button', { type: 'button', class: 'expand', 'aria-expanded': 'false', 'aria-controls': detailId }, probe.id)
  const row = el('tr', attributes, el('td', {}, button), ...cells)
  const holder = el('td', { colspan: cells.length + 1 })
  const detail = el('tr', { class: 'detail', id: detailId, hidden: true }, holder)
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true'
    button.setAttribute('aria-expanded', String(open))
    detail.hidden = !open
    if (open && holder.childElementCount === 0) holder.append(timeline(probe, episode))
  })
  return { row, detail, button }
}
