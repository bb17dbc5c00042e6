/**
 * A memory store over the Model Context Protocol's reference memory server
 * (`@modelcontextprotocol/server-memory`), driven the way an agent drives it:
 * through the SDK's `Client`, over stdio, one tool call at a time.
 *
 * The mapping an agent would make: one entity per slot and scope
 * (`notification_channel/work`), its current value kept as an observation,
 * and the turns already heard kept as observations of one more entity, so a
 * replayed turn is recognised by its event id. An observation is only a
 * string: there is no place for when a fact holds, so this store answers
 * "what was said last" and declares neither `clock` nor `history`.
 *
 * Two ways of handling a withdrawal ("I no longer have a work theme
 * preference"), measured side by side:
 * - `record` (the strict latest-write mapping): the withdrawal is written into
 *   the text, as the observation `withdrawn`;
 * - `delete`: the value's observation is deleted, which is what the server's
 *   `delete_observations` tool invites, and which also erases the fact that
 *   the user withdrew it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { MemoryStore, StoreAnswer, StoreCapabilities, StoreEvent, StoreQuery } from 'timegrounded'

/** What a withdrawal does to the slot's entity. */
export type WithdrawalMapping = 'record' | 'delete'

interface Entity {
  name: string
  entityType: string
  observations: string[]
}

/** The entity holding the ids of the turns already heard. */
const HEARD = 'conversation/heard-turns'
const WITHDRAWN = 'withdrawn'
const UNSURE = 'not sure yet'
const VALUE = 'value: '

/** The server's entry point, from the installed package (run with this Node, so no shell and no PATH lookup). */
function serverEntry(): string {
  const require = createRequire(import.meta.url)
  return join(dirname(require.resolve('@modelcontextprotocol/server-memory/package.json')), 'dist/index.js')
}

export class McpMemoryStore implements MemoryStore {
  readonly capabilities: StoreCapabilities
  private constructor(
    private readonly client: Client,
    private readonly folder: string,
    private readonly withdrawal: WithdrawalMapping,
  ) {
    this.capabilities = { tracks: ['structured'], clock: false, history: false, adapterVersion: `mcp-memory-example-1 (${withdrawal})` }
  }

  /** Start a server process with an empty graph in a folder of its own, and connect to it. */
  static async start(withdrawal: WithdrawalMapping = 'record'): Promise<McpMemoryStore> {
    const folder = mkdtempSync(join(tmpdir(), 'mcp-memory-'))
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [serverEntry()],
      env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') },
      stderr: 'ignore',
    })
    const client = new Client({ name: 'timegrounded-mcp-memory-example', version: '1.0.0' })
    try {
      await client.connect(transport)
    } catch (error) {
      rmSync(folder, { recursive: true, force: true })
      throw error
    }
    return new McpMemoryStore(client, folder, withdrawal)
  }

  /** The server process's id, for tests that check it is gone after close(). */
  get pid(): number | null {
    return (this.client.transport as StdioClientTransport | undefined)?.pid ?? null
  }

  private async call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const result = await this.client.callTool({ name, arguments: args })
    if (result.isError === true) throw new Error(`MCP tool ${name} failed: ${JSON.stringify(result.content)}`)
    return (result.structuredContent ?? {}) as Record<string, unknown>
  }

  private async open(name: string): Promise<Entity | undefined> {
    const graph = await this.call('open_nodes', { names: [name] })
    return (graph.entities as Entity[] | undefined)?.find((entity) => entity.name === name)
  }

  /** Make sure the entity exists, then make `observation` its only observation (or leave none). */
  private async replaceObservations(name: string, entityType: string, observation: string | null): Promise<void> {
    const entity = await this.open(name)
    if (entity === undefined) await this.call('create_entities', { entities: [{ name, entityType, observations: [] }] })
    else if (entity.observations.length > 0) await this.call('delete_observations', { deletions: [{ entityName: name, observations: entity.observations }] })
    if (observation !== null) await this.call('add_observations', { observations: [{ entityName: name, contents: [observation] }] })
  }

  /** An empty graph for the next episode: every entity deleted (relations go with them). */
  async reset(): Promise<void> {
    const graph = await this.call('read_graph', {})
    const names = ((graph.entities as Entity[] | undefined) ?? []).map((entity) => entity.name)
    if (names.length > 0) await this.call('delete_entities', { entityNames: names })
  }

  async ingest(event: StoreEvent): Promise<void> {
    const heard = await this.open(HEARD)
    const mark = `event ${event.eventId}`
    if (heard?.observations.includes(mark)) return
    if (heard === undefined) await this.call('create_entities', { entities: [{ name: HEARD, entityType: 'conversation', observations: [mark] }] })
    else await this.call('add_observations', { observations: [{ entityName: HEARD, contents: [mark] }] })

    const assertion = event.assertion
    if (!assertion || assertion.op === 'noop') return
    const name = `${assertion.slot}/${assertion.scope}`
    switch (assertion.op) {
      case 'set':
      case 'add':
        // One observation per entity: the latest value replaces the one before, which is then gone for good.
        if (assertion.value !== null) await this.replaceObservations(name, 'preference', `${VALUE}${assertion.value}`)
        return
      case 'withdraw':
        await this.replaceObservations(name, 'preference', this.withdrawal === 'record' ? WITHDRAWN : null)
        return
      case 'uncertain':
        await this.replaceObservations(name, 'preference', UNSURE)
        return
    }
  }

  async query(query: StoreQuery): Promise<StoreAnswer> {
    const entity = query.slot === undefined ? undefined : await this.open(`${query.slot}/${query.scope}`)
    const observation = entity?.observations.at(-1)
    if (observation === undefined) return { state: 'unknown', value: null }
    if (observation === WITHDRAWN) return { state: 'withdrawn', value: null }
    if (observation === UNSURE) return { state: 'needs_clarification', value: null }
    return { state: 'known', value: observation.slice(VALUE.length) }
  }

  /** Stop the server process and remove its graph file. */
  async close(): Promise<void> {
    try {
      await this.client.close()
    } finally {
      rmSync(this.folder, { recursive: true, force: true })
    }
  }
}
