// The strict latest-write mapping: a withdrawal is written into the text as the observation `withdrawn`.
// One server process serves every episode; reset() empties its graph in between.
import { timegroundedSuite } from 'timegrounded/vitest'
import { McpMemoryStore } from '../src/store.js'

timegroundedSuite(await McpMemoryStore.start('record'), { name: 'mcp-record', split: 'test' })
