// What the README says about BaseStore, checked against the installed package.
import { InMemoryStore } from '@langchain/langgraph'
import { expect, test } from 'vitest'

const instants = Array.from({ length: 15 }, (_, day) => `2025-01-${String(day + 1).padStart(2, '0')}T00:00:00Z`)

async function filled(): Promise<InMemoryStore> {
  const store = new InMemoryStore()
  for (const [index, at] of instants.entries()) await store.put(['events'], `e${index}`, { at, atMs: Date.parse(at) })
  return store
}

test('a range filter on ISO date strings matches nothing: the values go through Number(), which makes them NaN', async () => {
  const store = await filled()
  const cut = '2025-01-10T00:00:00Z'
  expect(await store.search(['events'], { filter: { at: { $lte: cut } }, limit: 100 })).toHaveLength(0)
  expect(await store.search(['events'], { filter: { atMs: { $lte: Date.parse(cut) } }, limit: 100 })).toHaveLength(10)
})

test('search() returns 10 items unless given a limit', async () => {
  const store = await filled()
  expect(await store.search(['events'])).toHaveLength(10)
  expect(await store.search(['events'], { limit: 100 })).toHaveLength(15)
})

test('createdAt and updatedAt are the wall clock at the write, not the conversation time', async () => {
  const store = new InMemoryStore()
  const before = Date.now()
  await store.put(['events'], 'old', { at: '2020-03-01T00:00:00Z' })
  const item = await store.get(['events'], 'old')
  expect(item?.createdAt.getTime()).toBeGreaterThanOrEqual(before)
  expect(item?.updatedAt.getTime()).toBeGreaterThanOrEqual(before)
})
