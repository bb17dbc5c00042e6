// The TIVARQ smoke split against this project's store: one Jest test per probe.
import { timegroundedSuite } from 'timegrounded/jest'
import { createStore } from '../src/store'

timegroundedSuite(() => createStore(), { split: 'smoke' })
