/**
 * What the structured-track reference stores need from a query. Answering `unknown`
 * to a query without a slot would look like a store that forgot, so a query
 * the store cannot read is refused with an error naming the field instead.
 */
import { TimegroundedError } from '../../errors.js'
import type { Scope } from '../../tivarq/schema.js'
import type { StoreQuery } from '../types.js'

/** The query field a structured-track reference store could not read. */
export type ReferenceQueryField = 'slot' | 'scope' | 'asOf'

/** The codes of `ReferenceQueryError`, each with what it means. */
export interface ReferenceQueryErrorCodes {
  /** A structured-track reference store got a query without a readable slot, scope or instant. */
  REFERENCE_QUERY_INVALID: 'ReferenceQueryError'
}

/** A structured-track reference store got a query it cannot answer (code `REFERENCE_QUERY_INVALID`); `field` names what is missing or unreadable. */
export class ReferenceQueryError extends TimegroundedError<keyof ReferenceQueryErrorCodes> {
  constructor(
    /** The query field at fault (camelCase; `as_of` on the wire). */
    readonly field: ReferenceQueryField,
    message: string,
  ) {
    super('REFERENCE_QUERY_INVALID', message)
  }
}

/** A query's slot, scope and instant, checked; throws `ReferenceQueryError` naming the first field missing or unreadable. */
export function structuredQuery(store: string, query: StoreQuery): { slot: string; scope: Scope; asOf: string } {
  const { slot, scope, asOf } = query as { slot?: unknown; scope?: unknown; asOf?: unknown }
  for (const [field, value] of [
    ['slot', slot],
    ['scope', scope],
  ] as const) {
    if (typeof value !== 'string' || value === '') {
      throw new ReferenceQueryError(
        field,
        `builtin:${store} answers structured-track queries only, and this query has no \`${field}\` (question ${JSON.stringify(query.question)}); ` +
          'run it on the structured track (`--track structured`), or use builtin:hybrid, which reads the slot and scope from the question, for the conversation track',
      )
    }
  }
  if (typeof asOf !== 'string' || Number.isNaN(Date.parse(asOf))) {
    throw new ReferenceQueryError(
      'asOf',
      `builtin:${store} cannot read the query's \`asOf\` (\`as_of\` on the wire): ${JSON.stringify(asOf) ?? 'undefined'} is not an ISO-8601 instant such as "2025-01-05T00:00:00Z"`,
    )
  }
  return { slot: slot as string, scope: scope as Scope, asOf }
}
