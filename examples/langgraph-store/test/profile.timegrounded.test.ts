// The "profile" pattern: one item per slot and scope, overwritten. A fresh InMemoryStore per episode;
// pass any other BaseStore the same way (give each episode its own namespace, or clear it, if it is shared).
import { InMemoryStore } from '@langchain/langgraph'
import { timegroundedSuite } from 'timegrounded/vitest'
import { ProfileMemory } from '../src/stores.js'

timegroundedSuite(() => new ProfileMemory(new InMemoryStore()), { name: 'langgraph-profile', split: 'test' })
