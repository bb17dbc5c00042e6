/**
 * Endpoint URLs, handled so that no credential leaks: the request URL is built
 * with `URL` (the path segment goes into the path, before any query), a URL is
 * shown only with its user name, password and query values masked, and a base
 * URL that carries credentials is refused before the first call, with where
 * the key belongs instead.
 */

/** What a masked part of a URL reads as. */
export const REDACTED = '***'

/** Query parameters whose value is a credential by its name (`api_key`, `token`, `sig`…). */
const CREDENTIAL_PARAMETER = /key|token|secret|pass|auth|sig|cred|session/i

/** `{baseUrl}/chat/completions`, the segment appended to the path (a query, e.g. `?api-version=…`, stays after it). */
export function chatCompletionsUrl(baseUrl: string): string {
  const url = new URL(baseUrl)
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`
  return url.href
}

/** `url` with its user name, password and every query value replaced by `***`; text that is not a URL is masked whole after `?` and before `@`. */
export function redactUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return text.replace(/\/\/[^/@\s]*@/, `//${REDACTED}@`).replace(/\?.*$/, `?${REDACTED}`)
  }
  if (url.username !== '') url.username = REDACTED
  if (url.password !== '') url.password = REDACTED
  const names = [...url.searchParams.keys()]
  if (names.length > 0) url.search = names.map((name) => `${encodeURIComponent(name)}=${REDACTED}`).join('&')
  return url.href.replaceAll('%2A%2A%2A', REDACTED)
}

/** Every http(s) URL in `text` masked with `redactUrl`. */
export function redactUrlsIn(text: string): string {
  return text.replace(/https?:\/\/[^\s"'`<>]+/g, (url) => redactUrl(url))
}

/** `text` with each occurrence of `secret` (an API key) replaced by `***`; unchanged when there is no secret. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret === undefined || secret === '' ? text : text.split(secret).join(REDACTED)
}

/**
 * Why `baseUrl` must not be used as it is — it carries a user name or password,
 * or a query parameter named like a credential — or null when it carries none
 * (or is not a URL at all: that is for the caller's own check to say).
 */
export function urlCredentials(baseUrl: string): string | null {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return null
  }
  if (url.username !== '' || url.password !== '') return 'a user name or password (`user:pass@`)'
  const named = [...url.searchParams.keys()].filter((name) => CREDENTIAL_PARAMETER.test(name))
  if (named.length > 0) return `the query parameter${named.length === 1 ? '' : 's'} ${named.map((name) => `\`${name}\``).join(', ')}`
  return null
}

/** The refusal of a base URL carrying credentials: names the setting, what it carries (masked), and where the key goes instead. */
export function credentialsInUrlMessage(setting: string, baseUrl: string, carried: string, keyGoesIn: string): string {
  return `${setting} ${redactUrl(baseUrl)} carries ${carried}; a credential must not be part of the URL (it would be printed and recorded with it). Give the URL without it and put the key in ${keyGoesIn} (sent as \`Authorization: Bearer …\`).`
}
