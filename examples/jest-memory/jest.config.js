// Jest with ts-jest (CommonJS, no flags), and timegrounded's reporter, watch key and ignore patterns.
const { withTimegrounded } = require('timegrounded/jest/config')

module.exports = withTimegrounded(
  { preset: 'ts-jest', testEnvironment: 'node' },
  { thresholds: { staleValueLeakageRate: { max: 0.05 }, transitionSuccessRate: { min: 0.9 } } },
)
