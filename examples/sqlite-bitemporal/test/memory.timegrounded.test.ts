// Every probe of the TIVARQ v1 test split becomes a test. Each episode gets a
// fresh in-memory database; pass { filename } to createStore to test on disk.
import { timegroundedSuite } from 'timegrounded/vitest'
import { createStore } from '../src/store.js'

timegroundedSuite(() => createStore(), { name: 'sqlite-bitemporal', split: 'test' })
