/**
 * One failing probe's episode as a timeline: every event where it arrived
 * (filled dot) and where it took effect (hollow dot), how long it stayed valid
 * when it expires, the instant the question was asked about, and which events
 * carry the value the store returned. Events that arrived after the question
 * are faded: the store had not seen them.
 */
import { dot, link, plot, ruleX, ruleY, text } from '@observablehq/plot'
import type { EpisodeView, EventView, FailingProbe } from '../page-data.js'
import { el } from './dom.js'

interface Placed extends EventView {
  label: string
  arrived: Date
  effective: Date | null
  expires: Date | null
  seen: boolean
  source: boolean
}

/** `2025-02-26T00:00:00Z` → `2025-02-26`; other instants as written. */
function shortInstant(iso: string | null): string {
  if (iso === null) return '—'
  return iso.replace(/T00:00:00(\.000)?Z$/, '')
}

/** An axis tick: the UTC day, and the time when it is not midnight. */
function tick(date: Date): string {
  const iso = date.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`
}

function place(episode: EpisodeView, probe: FailingProbe): Placed[] {
  const seenCount = probe.afterEvent ?? episode.events.length
  return episode.events.map((event, index) => ({
    ...event,
    label: `${index + 1} · ${event.speaker}`,
    arrived: new Date(event.arrivedAt),
    effective: event.effectiveAt === null ? null : new Date(event.effectiveAt),
    expires: event.expiresAt === null ? null : new Date(event.expiresAt),
    seen: index < seenCount,
    source: probe.sources.includes(index),
  }))
}

function chart(events: Placed[], probe: FailingProbe, episode: EpisodeView): SVGElement {
  const asked = probe.asOf === null ? [] : [new Date(probe.asOf)]
  const faded = (e: Placed) => (e.seen ? 1 : 0.35)
  return plot({
    width: 720,
    height: 54 + events.length * 26,
    marginLeft: 96,
    marginRight: 24,
    marginTop: 26,
    ariaLabel: `Timeline of episode ${episode.id}`,
    x: { type: 'utc', label: 'time (UTC) →', grid: true, ticks: 5, tickFormat: tick, inset: 12 },
    y: { domain: events.map((e) => e.label), label: null },
    marks: [
      ruleX(asked, { stroke: 'var(--worse)', strokeDasharray: '5,3', strokeWidth: 1.5, className: 'tg-checkpoint', ariaLabel: () => 'asked' }),
      text(asked, {
        x: (d: Date) => d,
        frameAnchor: 'top',
        dy: -14,
        dx: -4,
        textAnchor: 'end',
        text: () => `asked (as of ${shortInstant(probe.asOf)})`,
        fill: 'var(--worse)',
        fontWeight: 'bold',
      }),
      ruleY(
        events.filter((e) => e.effective !== null && e.expires !== null),
        {
          y: 'label',
          x1: 'effective',
          x2: 'expires',
          stroke: 'var(--muted)',
          strokeDasharray: '2,3',
          className: 'tg-validity',
          ariaLabel: 'id',
          title: (e: Placed) => `valid from ${shortInstant(e.effectiveAt)} until ${shortInstant(e.expiresAt)}`,
        },
      ),
      link(
        events.filter((e) => e.effective !== null && e.effective.getTime() !== e.arrived.getTime()),
        { y1: 'label', y2: 'label', x1: 'effective', x2: 'arrived', stroke: 'var(--muted)', strokeOpacity: faded, markerEnd: 'arrow', className: 'tg-lag' },
      ),
      dot(
        events.filter((e) => e.source),
        {
          y: 'label',
          x: 'arrived',
          r: 9,
          stroke: 'var(--worse)',
          strokeWidth: 2,
          className: 'tg-source',
          ariaLabel: 'id',
          title: () => 'carries the value the store returned',
        },
      ),
      dot(
        events.filter((e) => e.effective !== null),
        {
          y: 'label',
          x: 'effective',
          r: 4.5,
          stroke: 'var(--accent)',
          fill: 'var(--bg)',
          strokeWidth: 1.5,
          strokeOpacity: faded,
          className: 'tg-effective',
          ariaLabel: 'id',
          title: (e: Placed) => `${e.id} takes effect ${shortInstant(e.effectiveAt)}`,
        },
      ),
      dot(events, {
        y: 'label',
        x: 'arrived',
        r: 3.5,
        fill: 'var(--accent)',
        fillOpacity: faded,
        className: 'tg-arrival',
        ariaLabel: 'id',
        title: (e: Placed) => `${e.id} arrived ${shortInstant(e.arrivedAt)}${e.seen ? '' : ' (after the question)'}`,
      }),
    ],
  }) as unknown as SVGElement
}

function eventsTable(events: Placed[]): HTMLElement {
  return el(
    'table',
    { class: 'events' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['#', 'speaker', 'text', 'assertion', 'arrived', 'takes effect', 'expires', 'before the question'].map((h) => el('th', { scope: 'col' }, h)),
      ),
    ),
    el(
      'tbody',
      {},
      ...events.map((e, i) =>
        el(
          'tr',
          { class: [e.seen ? '' : 'unseen', e.source ? 'source' : ''].join(' ').trim() || null, 'data-event': e.id },
          el('td', {}, String(i + 1)),
          el('td', {}, e.speaker),
          el('td', {}, e.text),
          el('td', {}, e.assertion === null ? '—' : el('code', {}, e.assertion)),
          el('td', { class: 'instant' }, shortInstant(e.arrivedAt)),
          el('td', { class: 'instant' }, shortInstant(e.effectiveAt)),
          el('td', { class: 'instant' }, shortInstant(e.expiresAt)),
          el('td', {}, e.seen ? 'yes' : 'no'),
        ),
      ),
    ),
  )
}

/** The expanded view of one failing probe. */
export function timeline(probe: FailingProbe, episode: EpisodeView | undefined): HTMLElement {
  const facts = el(
    'dl',
    { class: 'facts' },
    el('dt', {}, 'Question'),
    el('dd', {}, probe.question ?? '(not in the split given to the report)'),
    el('dt', {}, 'Asked'),
    el(
      'dd',
      {},
      probe.asOf === null
        ? '—'
        : `as of ${shortInstant(probe.asOf)}, after event ${probe.afterEvent ?? '?'} (role ${probe.role}, phase ${probe.phase}, capability ${probe.capability})`,
    ),
    el('dt', {}, 'Expected'),
    el('dd', {}, el('code', { class: 'expected' }, probe.expected)),
    el('dt', {}, 'The store'),
    el('dd', {}, el('code', { class: 'answer' }, probe.answer)),
    el('dt', {}, 'Meaning'),
    el('dd', { class: 'meaning' }, probe.meaning),
  )
  if (episode === undefined)
    return el(
      'div',
      { class: 'timeline', 'data-episode': probe.episode },
      facts,
      el('p', { class: 'muted' }, `Episode ${probe.episode} is not in the split given to the report.`),
    )
  const events = place(episode, probe)
  return el(
    'div',
    { class: 'timeline', 'data-episode': episode.id },
    facts,
    el(
      'p',
      { class: 'legend muted' },
      ...[
        '● arrived',
        '○ takes effect (→ points to the arrival)',
        '┆ asked',
        'red ring: carries the value the store returned',
        'faded: arrived after the question',
      ].map((item) => el('span', {}, item)),
    ),
    chart(events, probe, episode),
    eventsTable(events),
  )
}
