// The event log: one item per statement, its valid time a number, searched with a range filter.
import { InMemoryStore } from '@langchain/langgraph'
import { timegroundedSuite } from 'timegrounded/vitest'
import { EventLogMemory } from '../src/stores.js'

timegroundedSuite(() => new EventLogMemory(new InMemoryStore()), { name: 'langgraph-event-log', split: 'test' })
