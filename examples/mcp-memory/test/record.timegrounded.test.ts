// The strict latest-write mapping: a withdrawal is written into the text as the observation `withdrawn`.
// Servers are started as episodes need them (at most the suite's concurrency), reset between episodes
// (reset() empties the graph) and closed once at the end, on Ctrl-C too.
import { pooledStores, timegroundedSuite } from 'timegrounded/vitest'
import { McpMemoryStore } from '../src/store.js'

timegroundedSuite(
  pooledStores(() => McpMemoryStore.start('record')),
  { name: 'mcp-record', split: 'test' },
)
