import { timegroundedSuite } from 'timegrounded/vitest'
import { createStore } from './store.js'

timegroundedSuite(() => createStore(), { split: 'test' })
