// Vitest's fixed start-up: one empty test, same settings as the bench project, no plugin.
import { defineConfig } from 'vitest/config'

export default defineConfig({ cacheDir: process.env.TG_CACHE_DIR, test: { include: ['*.probes.js'] } })
