import { test } from 'vitest'

test('nothing', () => {})
