import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { inProcessImportWorker } from '../test/in-process-import-worker'
import { createLogImportHost } from './log-import-host'
import type { LogImportToHost } from './log-import-protocol'
import { createLogImportDispatch, INDEX_SLICE } from './log-import-runtime'
import { writeWorkspace } from '../core/files'

const fixture = (name: string) => readFileSync(new URL(`../core/${name}`, import.meta.url), 'utf8')

const inProcessWorker = inProcessImportWorker

/** `count` OpenAI conversations; every tenth reuses a tool_call_id. */
function conversationList(count: number): string {
  return JSON.stringify(
    Array.from({ length: count }, (_, index) => ({
      id: `c${index}`,
      messages: [
        { role: 'user', content: `Order ${index}?` },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: index % 2 ? 'lookup_order' : 'search', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'a', content: 'ok' },
        { role: 'assistant', content: null, tool_calls: [{ id: index % 10 === 0 ? 'a' : 'b', type: 'function', function: { name: 'refund', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: index % 10 === 0 ? 'a' : 'b', content: 'done' },
        { role: 'assistant', content: index === 7 ? 'The parcel is in Zürich.' : 'Done.' },
      ],
    })),
  )
}

describe('log import worker', () => {
  it('hands a workspace file of any size to the page, which opens workspaces, and never reads it as a log', async () => {
    for (const padding of [0, 3_000_000]) {
      const text = writeWorkspace({ tools: `// ${'x'.repeat(padding)}\n`, model: 'export default () => "hi"\n', settings: { protocol: 'json', maxSteps: 5, systemPrompt: '' }, input: 'Hello' })
      // Keys in another order, as another tool may write them.
      const reordered = JSON.stringify({ tools: 'x'.repeat(padding), format: 'toolstep.workspace', version: 1, model: '', settings: {}, input: '' })
      for (const file of [text, reordered]) {
        const host = createLogImportHost(inProcessWorker)
        const reply = await host.importFile(new Blob([file]), null, () => {})
        expect(reply.kind, `${padding} chars`).toBe('passthrough')
        host.dispose()
      }
    }
  })

  it('reads a log saved as UTF-16LE with a BOM (as Windows tools write it)', async () => {
    const text = conversationList(8)
    const bytes = new Uint8Array(2 + text.length * 2)
    bytes.set([0xff, 0xfe])
    for (let index = 0; index < text.length; index++) {
      bytes[2 + index * 2] = text.charCodeAt(index) & 0xff
      bytes[3 + index * 2] = text.charCodeAt(index) >> 8
    }
    const host = createLogImportHost(inProcessWorker)
    const reply = await host.importFile(new Blob([bytes]), null, () => {})
    if (reply.kind !== 'log') throw new Error(JSON.stringify(reply))
    expect(reply.format).toBe('openai-conversations')
    expect(reply.conversations).toHaveLength(8)
    expect(await host.search('zürich')).toEqual([7])
    host.dispose()
  })

  it('imports in the worker, sends a compact index in slices with progress, and keeps the conversations', async () => {
    const worker = inProcessWorker()
    const host = createLogImportHost(() => worker)
    const fractions: number[] = []
    const reply = await host.importFile(new Blob([conversationList(2500)]), null, (_stage, fraction) => fractions.push(fraction))
    if (reply.kind !== 'log') throw new Error(JSON.stringify(reply))
    expect(reply.format).toBe('openai-conversations')
    expect(reply.conversations).toHaveLength(2500)
    expect(reply.conversations[10]).toEqual({ index: 10, id: 'c10', label: expect.any(String), messageCount: 6, tools: ['refund', 'search'], anomalyCodes: ['duplicate_tool_call_id'], anomalyCount: 1 })
    expect(reply.conversations[11]?.anomalyCodes).toEqual([])
    expect(worker.posted.filter((message) => message.type === 'index-slice')).toHaveLength(Math.ceil(2500 / INDEX_SLICE))
    expect(fractions.length).toBeGreaterThan(2)
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b))
    // Only the index crossed over, never the messages.
    expect(JSON.stringify(worker.posted)).not.toContain('Order 11?')

    const replayed = await host.replay(10, null)
    expect(replayed.ok && replayed.events[0]?.type).toBe('session.started')
    expect(replayed.ok && replayed.events.some((event) => event.anomalies?.some((flag) => flag.code === 'duplicate_tool_call_id'))).toBe(true)

    expect(await host.search('ZÜRICH')).toEqual([7])
    expect((await host.search('duplicate_tool'))?.length).toBe(250)
    expect((await host.search('lookup_order'))?.length).toBe(1250)
    host.dispose()
    expect(await host.search('x')).toBeNull()
  })

  it('re-checks the held log against a tools file', async () => {
    const host = createLogImportHost(inProcessWorker)
    await host.importFile(new Blob([conversationList(20)]), null)
    const tools = [{ name: 'refund', description: '', inputSchema: { type: 'object' } }]
    const reply = await host.reindex(tools, undefined)
    if (reply.kind !== 'log') throw new Error(JSON.stringify(reply))
    expect(reply.conversations[1]?.anomalyCodes).toEqual(['unknown_tool'])
    host.dispose()
  })

  it('hands Toolstep and tools files back as text, and reports what it recognised when a log is broken', async () => {
    const host = createLogImportHost(inProcessWorker)
    const tools = fixture('__fixtures__/tau-bench-airline-tools.json')
    expect(await host.importFile(new Blob([tools]), null)).toEqual({ kind: 'passthrough', text: tools })
    const session = JSON.stringify({ format: 'toolstep.session', version: 1, workspace: null, events: [] })
    expect((await host.importFile(new Blob([session]), null)).kind).toBe('passthrough')
    const broken = await host.importFile(new Blob(['[{"messages":[{"role":"user","content":"hi"},{"role":42}]}]']), null)
    expect(broken.kind === 'failed' && broken.error).toMatch(/^Recognised .*\[0\]\.messages\[1\]/)
    host.dispose()
  })

  it('resolves pending requests as cancelled when disposed, and rejects malformed requests', async () => {
    const host = createLogImportHost(inProcessWorker)
    const pending = host.importFile(new Blob([conversationList(200)]), null)
    host.dispose()
    expect(await pending).toEqual({ kind: 'cancelled' })
    const posted: LogImportToHost[] = []
    createLogImportDispatch((message) => posted.push(message))({ type: 'replay', requestId: 'x', index: -1, tools: null })
    expect(posted[0]).toMatchObject({ type: 'protocol-error', requestId: 'x' })
  })
})

describe('log import: file encodings', () => {
  const log = JSON.stringify([
    { role: 'user', content: 'Weather in Zürich?' },
    { role: 'assistant', content: 'Sunny.' },
  ])
  const utf16 = (text: string, bigEndian: boolean) => {
    const bytes = bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i)
      bytes.push(...(bigEndian ? [unit >> 8, unit & 0xff] : [unit & 0xff, unit >> 8]))
    }
    return new Uint8Array(bytes)
  }

  it('reads UTF-16 LE and BE with a BOM like UTF-8', async () => {
    for (const bytes of [new TextEncoder().encode(log), utf16(log, false), utf16(log, true)]) {
      const host = createLogImportHost(inProcessWorker)
      const reply = await host.importFile(new Blob([bytes]), null)
      expect(reply).toMatchObject({ kind: 'log', conversations: [{ messageCount: 2 }] })
      host.dispose()
    }
  })

  it('refuses a binary file with a reason', async () => {
    const host = createLogImportHost(inProcessWorker)
    const reply = await host.importFile(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe, 0x01])]), null)
    expect(reply).toEqual({ kind: 'failed', error: expect.stringMatching(/^The file cannot be opened: it is not (UTF-8 )?text/), errorPhrase: expect.objectContaining({ ns: 'trace', key: 'workerCannotOpen' }) })
    host.dispose()
  })
})
