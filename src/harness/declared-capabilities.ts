/**
 * A store's declared capabilities, checked against the run (protocol, track) and copied into the
 * pool's `AdapterInfo` and the lease's capabilities. Its own file: every kind of pool, in process or
 * not, reads them the same way.
 */
import { AdapterRefusedError } from '../adapters/errors.js'
import { PROTOCOL, type DeclaredCapabilities } from '../adapters/protocol.js'
import type { StoreCapabilities, Track } from '../adapters/types.js'
import type { AdapterInfo } from './store-lease.js'

export function refuseUnlessFit(declared: DeclaredCapabilities, track: Track, who: string, raw: unknown): void {
  if (declared.protocol !== PROTOCOL) {
    throw new AdapterRefusedError(
      `${who} declared protocol ${JSON.stringify(declared.protocol)}; the harness speaks ${JSON.stringify(PROTOCOL)}. Reply to {"type":"capabilities"} with "protocol":"${PROTOCOL}".`,
      raw,
    )
  }
  if (!declared.tracks.includes(track)) {
    const tracks = declared.tracks.length === 0 ? 'no tracks' : `tracks [${declared.tracks.join(', ')}]`
    throw new AdapterRefusedError(
      `${who} declared ${tracks}, not the requested ${track} track. Declare "${track}" in its capabilities' tracks, or run another track.`,
      raw,
    )
  }
}

export function infoOf(name: string, command: string[] | null, declared: DeclaredCapabilities): AdapterInfo {
  const info: AdapterInfo = {
    name,
    command,
    adapterVersion: declared.adapterVersion,
    capabilities: { clock: declared.clock, history: declared.history, inspection: declared.inspection, tracks: [...declared.tracks] },
  }
  return withConfigs(info, declared)
}

export function publicCapabilities(declared: DeclaredCapabilities): StoreCapabilities {
  const capabilities: StoreCapabilities = { tracks: [...declared.tracks], clock: declared.clock, history: declared.history, inspection: declared.inspection }
  if (declared.adapterVersion !== null) capabilities.adapterVersion = declared.adapterVersion
  return withConfigs(capabilities, declared)
}

/** `target` with the declared model and prompt configurations, when there are any. */
function withConfigs<T extends { modelConfig?: Record<string, unknown>; promptConfig?: Record<string, unknown> }>(
  target: T,
  declared: Pick<DeclaredCapabilities, 'modelConfig' | 'promptConfig'>,
): T {
  if (declared.modelConfig !== null) target.modelConfig = structuredClone(declared.modelConfig)
  if (declared.promptConfig !== null) target.promptConfig = structuredClone(declared.promptConfig)
  return target
}

/**
 * A fresh copy of `info`, field by field (the runner asks for it at every episode; structuredClone
 * costs ten times as much: about 3 ms of a run's 180 episodes, measured): the same keys in the same order, the configurations deep-copied.
 */
export function copyInfo(info: AdapterInfo): AdapterInfo {
  const copy: AdapterInfo = {
    ...info,
    command: info.command === null ? null : [...info.command],
    capabilities: { ...info.capabilities, tracks: [...info.capabilities.tracks] },
  }
  return withConfigs(copy, { modelConfig: info.modelConfig ?? null, promptConfig: info.promptConfig ?? null })
}
