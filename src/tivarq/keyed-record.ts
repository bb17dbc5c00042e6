/**
 * `z.record` for objects whose keys come from a file: zod builds its output
 * by assignment, so a key named `__proto__` replaces the output's prototype
 * instead of becoming an entry, and is lost. `keyedRecord` keeps every own
 * key of the input, `__proto__` and `constructor` included, in an object
 * without a prototype, so that a lookup finds only what the file holds.
 */
import { z } from 'zod'

/** An object of `value`s under any string keys, each kept as an entry; an issue's path names its key. */
export function keyedRecord<V extends z.ZodType>(value: V): z.ZodType<Record<string, z.output<V>>, unknown> {
  return z.unknown().transform((input, context) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      context.issues.push({ code: 'invalid_type', expected: 'record', input, message: `Invalid input: expected record, received ${describe(input)}` })
      return z.NEVER
    }
    const entries: Record<string, z.output<V>> = Object.create(null)
    for (const [key, given] of Object.entries(input)) {
      const parsed = value.safeParse(given)
      if (parsed.success) entries[key] = parsed.data
      else for (const issue of parsed.error.issues) context.issues.push({ ...issue, input: given, path: [key, ...issue.path] })
    }
    return entries
  })
}

function describe(input: unknown): string {
  return input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input
}

/** The entry of `record` under `key`, when the record holds one of its own (never a property it inherits, such as `constructor`). */
export function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}
