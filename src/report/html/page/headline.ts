/** The header line (what ran) and the headline cards (every metric with its denominator). */
import type { HeadlineCard, PageData, TivarqPage } from '../page-data.js'
import { byId, el, section } from './dom.js'

/** Data, split, track, store, seed, resamples and version, as one line under the title. */
export function renderIdentity(data: PageData): void {
  byId('tg-identity').append(
    ...data.identity.map((item) => el('span', { class: 'identity-item', title: item.title }, el('span', { class: 'muted' }, `${item.label} `), item.value)),
  )
}

function card(item: HeadlineCard): HTMLElement {
  const direction = item.better === null ? null : `${item.better === 'higher' ? '↑' : '↓'} ${item.better} is better`
  return el(
    'div',
    { class: item.primary ? 'card primary' : 'card', role: 'group', 'aria-label': item.label },
    el('span', { class: 'card-label' }, item.label),
    direction && el('span', { class: 'card-direction' }, direction),
    el('span', { class: 'card-value' }, item.value),
    el('span', { class: 'card-detail' }, item.detail),
    item.interval && el('span', { class: 'card-interval' }, item.interval),
    item.baseline && el('span', { class: `card-baseline change-${item.baseline.change}` }, item.baseline.text),
  )
}

/** The completeness banner and the cards. */
export function headlineSection(page: TivarqPage): HTMLElement {
  return section(
    'tg-headline',
    'Headline',
    el('p', { class: page.complete ? 'status complete' : 'status incomplete', role: 'status' }, page.status),
    page.notMeasured && el('p', { class: 'not-measured' }, page.notMeasured),
    el('div', { class: 'cards' }, ...page.cards.map(card)),
  )
}
