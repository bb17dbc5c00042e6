// The store the compatibility cells test, as the text of a plain JavaScript
// module they write into their fresh project: a bitemporal in-memory store
// (the test/fixtures store without its other bugs), correct with `none`, and
// with `stale` a first-write-wins store that leaks replaced values.
// `storeModule('esm')` is it as an ES module, `storeModule('cjs')` as CommonJS.
export function storeModule(format) {
  const body = STORE.replace('export function createStore', 'function createStore')
  return format === 'esm' ? STORE : `${body}\nmodule.exports = { createStore }\n`
}

const STORE = `// Written by the timegrounded compatibility cell.
export function createStore(bug = 'none') {
  const seen = new Set()
  const facts = []
  return {
    capabilities: { tracks: ['structured'], clock: true, history: true, adapterVersion: 'compat-cell-1' },
    reset() {
      seen.clear()
      facts.length = 0
    },
    ingest(event) {
      if (seen.has(event.eventId)) return
      seen.add(event.eventId)
      if (event.assertion && event.assertion.op !== 'noop') facts.push({ assertion: event.assertion, arrival: facts.length })
    },
    advanceClock() {},
    query(query) {
      const asOf = Date.parse(query.asOf)
      const kept = facts
        .filter(({ assertion }) => assertion.slot === query.slot && assertion.scope === query.scope && Date.parse(assertion.effectiveAt) <= asOf)
        .sort((a, b) => Date.parse(a.assertion.effectiveAt) - Date.parse(b.assertion.effectiveAt) || a.arrival - b.arrival)
      let answer = { state: 'unknown', value: null }
      let expiresAt
      for (const { assertion } of kept) {
        if (assertion.op === 'set') {
          if (bug === 'stale' && answer.state === 'known') continue
          answer = { state: 'known', value: assertion.value }
          expiresAt = assertion.expiresAt
        } else if (assertion.op === 'add') {
          const previous = answer.state !== 'known' ? [] : Array.isArray(answer.value) ? answer.value : [answer.value]
          answer = { state: 'known', value: [...new Set([...previous, assertion.value])].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())) }
          expiresAt = assertion.expiresAt
        } else if (assertion.op === 'withdraw') {
          answer = { state: 'withdrawn', value: null }
        } else if (assertion.op === 'uncertain') {
          answer = { state: 'needs_clarification', value: null }
        }
      }
      if (answer.state === 'known' && expiresAt !== undefined && asOf >= Date.parse(expiresAt)) return { state: 'expired', value: null }
      return answer
    },
  }
}
`
