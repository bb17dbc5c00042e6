import { defineConfig } from 'vitest/config'
import { timegrounded } from 'timegrounded/vitest'

// The probes this server cannot pass are recorded in the committed baseline (`npx vitest run -u`), so a run fails only when something gets worse.
export default defineConfig({
  plugins: [timegrounded()],
})
