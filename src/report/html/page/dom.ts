/** DOM helpers of the page script: build elements, find them, format fractions. */

type Child = Node | string | null | undefined | false

/** An element with attributes (null/undefined/false ones left out) and children (falsy ones skipped). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | null | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue
    element.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child)
  return element
}

/** The element with this id; the template and this script create them together, so a missing one is a bug worth failing on. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`timegrounded report: no element #${id}`)
  return found as T
}

/** A fraction as a percentage with one decimal, or a dash. */
export function percent(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(1)}%`
}

/** `stale_leak` → `stale leak`. */
export function words(key: string): string {
  return key.replace(/_/g, ' ')
}

/** A section with a heading and an id to link to. */
export function section(id: string, heading: string, ...children: Child[]): HTMLElement {
  return el('section', { id, 'aria-labelledby': `${id}-heading` }, el('h2', { id: `${id}-heading` }, heading), ...children)
}

/** A `<details>` holding a table of numbers, under a chart: what the chart shows, readable without a pointer. */
export function numbersTable(caption: string, head: string[], rows: string[][]): HTMLElement {
  return el(
    'details',
    { class: 'numbers' },
    el('summary', {}, caption),
    el(
      'table',
      {},
      el('thead', {}, el('tr', {}, ...head.map((cell) => el('th', { scope: 'col' }, cell)))),
      el('tbody', {}, ...rows.map((row) => el('tr', {}, ...row.map((cell) => el('td', {}, cell))))),
    ),
  )
}
