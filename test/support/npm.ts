// Installing into fresh projects with `--prefer-offline` (not a test file):
// npm then trusts its cached package metadata, which can lag the registry.
// When a package resolved from fresh metadata asks for a version the stale
// metadata of another does not list yet, npm fails with ETARGET; the same
// install with `--prefer-online` refreshes that metadata and succeeds.

/** Whether an npm failure is the stale-cache ETARGET (a version the cached metadata does not list). */
export function staleMetadata(output: string): boolean {
  return /\bETARGET\b/.test(output)
}

/** The same npm arguments, asking the registry for metadata instead of trusting the cache. */
export function preferOnline(args: readonly string[]): string[] {
  return args.map((arg) => (arg === '--prefer-offline' ? '--prefer-online' : arg))
}
