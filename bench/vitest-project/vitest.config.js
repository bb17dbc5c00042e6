// The bench's user-style project: the test split through an in-process store.
import { defineConfig } from 'vitest/config'
import { timegrounded } from 'timegrounded/vitest'

export default defineConfig({
  cacheDir: process.env.TG_CACHE_DIR,
  plugins: [timegrounded({ baseline: false, outputDir: process.env.TG_OUTPUT, color: false })],
  // Installed from npm, timegrounded lives in node_modules and Vitest loads it natively (externalized);
  // here it resolves to this repository's dist/, so say the same explicitly.
  test: { include: ['*.probes.js'], server: { deps: { external: [/\/dist\//] } } },
})
