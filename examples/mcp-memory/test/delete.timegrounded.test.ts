// The mapping the server's tools invite: a withdrawal deletes the value's observation, and with it any trace of the withdrawal.
import { pooledStores, timegroundedSuite } from 'timegrounded/vitest'
import { McpMemoryStore } from '../src/store.js'

timegroundedSuite(
  pooledStores(() => McpMemoryStore.start('delete')),
  { name: 'mcp-delete', split: 'test' },
)
