import { timegroundedSuite } from 'timegrounded/vitest'
import { createStore } from '../src/store.js'

timegroundedSuite(() => createStore(), { split: 'dev' })
