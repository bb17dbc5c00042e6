import { defineConfig } from 'vitest/config'
import { timegrounded } from 'timegrounded/vitest'

export default defineConfig({
  plugins: [
    timegrounded({
      // A bitemporal store has no excuse for temporal mistakes: hold it to a perfect score.
      thresholds: {
        transitionSuccessRate: { min: 1 },
        staleValueLeakageRate: { max: 0 },
        historicalAccuracy: { min: 1 },
        expirationAccuracy: { min: 1 },
      },
    }),
  ],
})
