/**
 * The watch-mode key that records the baseline (`b` unless configured):
 * Jest offers its own `u` only after a snapshot failure and keeps `u` from
 * plugins, so timegrounded takes another key. Pressing it re-runs the tests
 * with wrong answers recorded as known failures, and the reporter of that
 * run writes the baseline.
 */
import { isWatchKey, WATCH_KEY_RULE, requestRecord } from './record-request.js'

/** Options of the watch plugin, from `watchPlugins: [['timegrounded/jest/watch-plugin', { key: 'b' }]]`. */
export interface TimegroundedWatchPluginOptions {
  /** The key. @default 'b' */
  key?: string
}

/** The part of Jest's `updateConfigAndRun` the plugin uses. */
type UpdateConfigAndRun = (config?: Record<string, unknown>) => void

/** A Jest watch plugin (`jest-watcher`'s `WatchPlugin`). */
export default class TimegroundedWatchPlugin {
  private readonly key: string

  constructor({ config = {} }: { config?: TimegroundedWatchPluginOptions } = {}) {
    const key = config.key ?? 'b'
    if (!isWatchKey(key)) throw new Error(`timegrounded/jest/watch-plugin: \`key\` must be ${WATCH_KEY_RULE}, got ${JSON.stringify(key)}`)
    this.key = key
  }

  getUsageInfo(): { key: string; prompt: string } {
    return { key: this.key, prompt: 'record the timegrounded baseline (re-runs the tests)' }
  }

  async run(_globalConfig: unknown, updateConfigAndRun: UpdateConfigAndRun): Promise<void> {
    requestRecord()
    updateConfigAndRun({})
  }
}
