import { defineConfig } from 'vitest/config'
import { timegrounded } from 'timegrounded/vitest'

export default defineConfig({
  plugins: [timegrounded({ thresholds: { staleValueLeakageRate: { max: 0.1 }, transitionSuccessRate: { min: 0.8 } } })],
})
