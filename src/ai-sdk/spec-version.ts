/**
 * The one place that knows the AI SDK has more than one major: `ai` 6 wraps
 * models to language-model specification `v3`, `ai` 7 to `v4`, and a
 * middleware says which it was written for. The call options and results this
 * package reads (prompt, settings, content, finish reason, usage) have the same
 * shape in both, so the version is found once, by wrapping a model that is
 * never called and reading what the installed `ai` made of it.
 */
import { wrapLanguageModel } from 'ai'

/** The language-model specification version the installed `ai` wraps to: `v3` (ai 6) or `v4` (ai 7). */
export type ModelSpecVersion = 'v3' | 'v4'

let found: ModelSpecVersion | null = null

const never = (): Promise<never> => Promise.reject(new Error('the version probe is never called'))

/** The installed `ai`'s language-model specification version, found on first use. */
export function modelSpecVersion(): ModelSpecVersion {
  if (found !== null) return found
  const probe = { specificationVersion: 'v3', provider: 'timegrounded', modelId: 'version-probe', supportedUrls: {}, doGenerate: never, doStream: never }
  const wrapped = wrapLanguageModel({ model: probe as never, middleware: { specificationVersion: 'v3' } as never }) as { specificationVersion: string }
  found = wrapped.specificationVersion === 'v4' ? 'v4' : 'v3'
  return found
}
