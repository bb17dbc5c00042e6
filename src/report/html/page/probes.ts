/**
 * The failing probes: a table filterable by kind, family and text, every row
 * expandable (button: Enter or Space) into its episode timeline, built on first
 * open. `/` jumps to the search box. Rows are built once and hidden or shown,
 * so an opened timeline stays open while the filters change.
 */
import { FAILURE_KINDS, type FailingProbe, type FailureKind, failingCaption, type TivarqPage } from '../page-data.js'
import { el, section, words } from './dom.js'
import { timelineRow } from './timeline-row.js'

interface Row {
  probe: FailingProbe
  row: HTMLTableRowElement
  detail: HTMLTableRowElement
  button: HTMLButtonElement
  haystack: string
}

function kindBadge(probe: FailingProbe): HTMLElement {
  const also = probe.kind === 'known_failure' ? ` · ${words(probe.outcome)}` : ''
  return el('span', { class: `badge kind-${probe.kind}` }, `${words(probe.kind)}${also}`)
}

function buildRow(probe: FailingProbe, page: TivarqPage): Row {
  const { row, detail, button } = timelineRow(
    probe,
    page.episodes[probe.episode],
    { 'data-probe': probe.id, 'data-kind': probe.kind, 'data-family': probe.family },
    [
      el('td', {}, probe.family),
      el('td', {}, kindBadge(probe)),
      el('td', {}, probe.question ?? '—'),
      el('td', {}, el('code', {}, probe.expected)),
      el('td', {}, el('code', {}, probe.answer)),
    ],
  )
  const haystack = [probe.id, probe.family, probe.question ?? '', probe.expected, probe.answer, probe.meaning].join('\n').toLowerCase()
  return { probe, row, detail, button, haystack }
}

/** The section, wired. */
export function failingSection(page: TivarqPage): HTMLElement {
  const total = page.failing.length
  if (total === 0) {
    return section('tg-failing', 'Failing probes', el('p', { class: 'status complete' }, `No failing probe: all ${page.passed} probes passed.`))
  }
  const kindBoxes = FAILURE_KINDS.map((kind) =>
    el('input', { type: 'checkbox', checked: true, 'data-kind': kind, id: `tg-filter-kind-${kind}`, disabled: page.kindCounts[kind] === 0 }),
  )
  const kinds = el(
    'fieldset',
    { class: 'kinds' },
    el('legend', {}, 'Kind'),
    ...FAILURE_KINDS.map((kind, i) =>
      el('label', { for: `tg-filter-kind-${kind}`, class: `chip kind-${kind}` }, kindBoxes[i], ` ${words(kind)} (${page.kindCounts[kind]})`),
    ),
  )
  const family = el(
    'select',
    { id: 'tg-filter-family' },
    el('option', { value: '' }, 'all families'),
    ...page.families.map((f) => el('option', { value: f }, f)),
  )
  const search = el('input', { id: 'tg-filter-search', type: 'search', placeholder: 'probe, question, answer — press /', 'aria-keyshortcuts': '/' })
  const count = el('span', { id: 'tg-filter-count', role: 'status', 'aria-live': 'polite' })
  const body = el('tbody')
  const rows = page.failing.map((probe) => buildRow(probe, page))
  for (const { row, detail } of rows) body.append(row, detail)

  const apply = (): void => {
    const allowed = new Set<FailureKind>(FAILURE_KINDS.filter((_, i) => (kindBoxes[i] as HTMLInputElement).checked))
    const wanted = family.value
    const needle = search.value.trim().toLowerCase()
    let shown = 0
    for (const r of rows) {
      const visible = allowed.has(r.probe.kind) && (wanted === '' || r.probe.family === wanted) && (needle === '' || r.haystack.includes(needle))
      r.row.hidden = !visible
      r.detail.hidden = !visible || r.button.getAttribute('aria-expanded') !== 'true'
      if (visible) shown++
    }
    count.textContent = `${shown} of ${total} failing probes shown`
  }
  for (const box of kindBoxes) box.addEventListener('change', apply)
  family.addEventListener('change', apply)
  search.addEventListener('input', apply)
  search.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return
    if (search.value !== '') {
      search.value = ''
      apply()
    } else search.blur()
  })
  document.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement | null
    const typing = target !== null && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName))
    if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault()
      search.focus()
    }
  })
  apply()

  return section(
    'tg-failing',
    'Failing probes',
    el('p', {}, failingCaption(page)),
    page.timelineNote && el('p', { class: 'muted', id: 'tg-timeline-note' }, page.timelineNote),
    el('div', { class: 'filters' }, kinds, el('label', {}, 'Family ', family), el('label', {}, 'Search ', search), count),
    el(
      'table',
      { id: 'tg-probes' },
      el('thead', {}, el('tr', {}, ...['probe', 'family', 'kind', 'question', 'expected', 'the store’s answer'].map((h) => el('th', { scope: 'col' }, h)))),
      body,
    ),
  )
}
