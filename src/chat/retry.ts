/**
 * When to try a chat completion again: pure functions over status codes and
 * headers, so the policy can be tested without a server or a clock.
 */

/** HTTP statuses worth another attempt: rate limited, or the server failed. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500
}

/**
 * The wait a `Retry-After` header asks for, in ms: delay-seconds (`"2"`,
 * `"0.5"`) or an HTTP date (`"Wed, 21 Oct 2015 07:28:00 GMT"`, a date in the
 * past meaning now). Null when the header is missing or unreadable.
 */
export function retryAfterMs(header: string | null | undefined, now: number): number | null {
  if (header === null || header === undefined) return null
  const text = header.trim()
  if (text === '') return null
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  // Only a written date: Date.parse would also take a bare number as a year.
  if (!/[a-z]/i.test(text)) return null
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

/**
 * The wait before retry number `retry` (1-based): what `Retry-After` asks
 * for when it says, else `backoffMs` doubled per earlier retry; never more
 * than `maxWaitMs`, so a server cannot park a run for an hour.
 */
export function retryWaitMs(retry: number, retryAfter: number | null, backoffMs: number, maxWaitMs: number): number {
  const wanted = retryAfter ?? backoffMs * 2 ** (retry - 1)
  return Math.min(wanted, maxWaitMs)
}
