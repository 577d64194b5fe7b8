import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeSession } from '../core/files'
import { writeWorkspace } from '../core/files'
import { createLogImportHost } from '../sandbox/log-import-host'
import { createNodeSandbox } from '../sandbox/node-sandbox'
import { CAPTURE_ANSWER, CAPTURE_INPUT, CAPTURE_TOOLS } from '../test/capture-workspace'
import { captureReply, errorReply, startChatServer, type ChatServer } from '../test/chat-server'
import { inProcessImportWorker } from '../test/in-process-import-worker'
import { TAB_KEY_ITEM } from './model-source-store'
import { createPlayground, type Playground } from './playground'
import { memoryStorage } from './storage'

const KEY = 'sk-secret-do-not-save-1234'

let server: ChatServer
let pg: Playground
let saved: ReturnType<typeof memoryStorage>
let tab: ReturnType<typeof memoryStorage>

beforeEach(async () => {
  server = await startChatServer()
  saved = memoryStorage()
  tab = memoryStorage()
  pg = createPlayground({ createSandbox: () => createNodeSandbox(), createImportHost: () => createLogImportHost(inProcessImportWorker), storage: saved, tabStorage: tab })
  const ws = pg.stores.workspace.getState()
  ws.setTools(CAPTURE_TOOLS)
  ws.setInput(CAPTURE_INPUT)
  ws.setSettings({ protocol: 'openai', systemPrompt: "You're a helpful assistant." })
  const source = pg.stores.modelSource.getState()
  source.setSource('endpoint')
  source.setConfig({ baseUrl: server.baseUrl, model: 'gpt-4o-mini', stream: true })
})
afterEach(async () => {
  pg.dispose()
  await server.close()
})

describe('playground with an endpoint model', () => {
  it('runs the loop against the endpoint to the recorded final answer, with the chunks on model.responded', async () => {
    server.enqueue(captureReply('openai-chat-stream-parallel-tools.response.sse'), captureReply('openai-chat-parallel-tools.2.response.json'))
    await pg.run()
    const events = pg.stores.run.getState().events
    expect(events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'final_answer' })
    expect(events.find((e) => e.type === 'model.responded' && e.step === 0)).toMatchObject({ chunks: expect.any(Array), firstTokenMs: expect.any(Number) })
    expect(events.some((e) => e.type === 'model.responded' && e.raw.includes(CAPTURE_ANSWER))).toBe(true)
  })

  it('a failure is a model.failed on the decide phase with the provider message', async () => {
    server.enqueue(errorReply(429, 'Rate limit reached.', { 'retry-after': '3' }))
    await pg.run()
    const failed = pg.stores.run.getState().events.find((e) => e.type === 'model.failed')
    expect(failed?.type === 'model.failed' && failed.error).toMatch(/Rate limit reached\..*Retry after 3 s/)
  })

  it('Stop keeps what a streamed answer had received in the stop', async () => {
    const chunk = JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Seattle is cur' }, finish_reason: null }] })
    server.enqueue({ kind: 'hang', before: [chunk] })
    const running = pg.run()
    // Wait until the chunk has been read (nothing is timed: the loop polls what arrived).
    while (!pg.stores.run.getState().events.length || server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    await new Promise((resolve) => setTimeout(resolve, 300))
    pg.stop()
    await running
    expect(pg.stores.run.getState().events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'aborted', detail: 'Stopped by the user. Received so far: Seattle is cur' })
  })

  it('an endpoint without a model name is a clear problem, and nothing runs', async () => {
    pg.stores.modelSource.getState().setConfig({ model: '' })
    await pg.run()
    expect(pg.stores.run.getState().problems[0]?.message).toContain('model name')
    expect(server.requests).toHaveLength(0)
  })

  it('the key is sent but never saved: not in storage, the workspace, the session, an export or exported code; sessionStorage only when remembered', async () => {
    const source = pg.stores.modelSource.getState()
    source.setApiKey(KEY)
    expect(tab.entries.size).toBe(0)
    source.setRememberKey(true)
    expect(tab.getItem(TAB_KEY_ITEM)).toBe(KEY)
    server.enqueue(captureReply('openai-chat-parallel-tools.1.response.json'), captureReply('openai-chat-parallel-tools.2.response.json'))
    await pg.run()
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
    const [code, test] = await Promise.all([pg.exportCode(), pg.exportTest()])
    const leaks = [
      ...saved.entries.values(),
      writeWorkspace(pg.currentWorkspace()),
      writeSession(pg.currentWorkspace(), pg.stores.run.getState().events),
      pg.exportOpenSession('openai')?.text ?? '',
      pg.exportOpenSession('anthropic')?.text ?? '',
      code.ok ? code.file.text : 'no exported loop',
      test.ok ? test.file.text : 'no exported test',
    ].filter((text) => text.includes(KEY))
    expect(leaks).toEqual([])
    expect(code.ok && code.file.text).toContain(server.baseUrl)
    source.setRememberKey(false)
    expect(tab.entries.size).toBe(0)
  })

  it('Save as mock model: the server stopped, the saved mock gives the same timeline; other input diverges with a clear error', async () => {
    server.enqueue(captureReply('openai-chat-stream-parallel-tools.response.sse'), captureReply('openai-chat-parallel-tools.2.response.json'))
    await pg.run()
    const live = pg.stores.run.getState().events
    const result = pg.saveAsMock()
    expect(result.ok).toBe(true)
    expect(pg.stores.modelSource.getState().source).toBe('mock')
    await server.close()
    await pg.run()
    const replayed = pg.stores.run.getState().events
    const shape = (events: typeof live) => events.map((e) => (e.type === 'model.responded' ? { type: e.type, raw: e.raw } : e.type === 'tool.finished' ? { type: e.type, callId: e.callId } : e.type === 'loop.stopped' ? { type: e.type, reason: e.reason } : { type: e.type }))
    expect(shape(replayed)).toEqual(shape(live))
    expect(replayed.at(-1)).toMatchObject({ reason: 'final_answer' })
    pg.stores.workspace.getState().setInput('And in Boston?')
    await pg.run()
    const failed = pg.stores.run.getState().events.find((e) => e.type === 'model.failed')
    expect(failed?.type === 'model.failed' && failed.error).toContain('diverged from the recording at turn 1')
    server = await startChatServer()
  })

  it('Save as mock model without a run is an error and changes nothing', () => {
    const before = pg.currentWorkspace().model
    expect(pg.saveAsMock()).toMatchObject({ ok: false, error: expect.stringContaining('Run the workspace first') })
    expect(pg.currentWorkspace().model).toBe(before)
  })

  it('the endpoint URL, model name and options are remembered across reloads; the key and the headers are not', () => {
    const source = pg.stores.modelSource.getState()
    source.setApiKey(KEY)
    source.setConfig({ stream: false, timeoutMs: 5000, headers: { 'x-proxy-token': 'secret-header-value' } })
    const next = createPlayground({ createSandbox: () => createNodeSandbox(), createImportHost: () => createLogImportHost(inProcessImportWorker), storage: saved })
    expect(next.stores.modelSource.getState().config).toMatchObject({ baseUrl: server.baseUrl, model: 'gpt-4o-mini', stream: false, timeoutMs: 5000 })
    expect(next.stores.modelSource.getState().config.headers).toBeUndefined()
    expect(next.stores.modelSource.getState().apiKey).toBe('')
    expect([...saved.entries.values()].filter((text) => text.includes(KEY) || text.includes('secret-header-value'))).toEqual([])
    next.dispose()
  })

  it('a password or key inside the endpoint URL is not remembered', () => {
    pg.stores.modelSource.getState().setConfig({ baseUrl: 'https://me:pw-secret@api.example.test/v1?api_key=sk-url-secret' })
    expect([...saved.entries.values()].filter((text) => text.includes('pw-secret') || text.includes('sk-url-secret'))).toEqual([])
    const next = createPlayground({ createSandbox: () => createNodeSandbox(), createImportHost: () => createLogImportHost(inProcessImportWorker), storage: saved })
    expect(next.stores.modelSource.getState().config.baseUrl).toBe('https://api.example.test/v1?api_key=REDACTED')
    next.dispose()
  })

  it('a remembered endpoint that is unreadable is ignored: the defaults are used', () => {
    const storage = memoryStorage({ 'toolstep.endpoint': '{"baseUrl": 42' })
    const next = createPlayground({ createSandbox: () => createNodeSandbox(), createImportHost: () => createLogImportHost(inProcessImportWorker), storage })
    expect(next.stores.modelSource.getState().config.baseUrl).toBe('http://127.0.0.1:11434/v1')
    next.dispose()
  })

  it('a key remembered for the tab is there in a new playground of the same tab', () => {
    pg.stores.modelSource.getState().setRememberKey(true)
    pg.stores.modelSource.getState().setApiKey(KEY)
    const next = createPlayground({ createSandbox: () => createNodeSandbox(), createImportHost: () => createLogImportHost(inProcessImportWorker), tabStorage: tab })
    expect(next.stores.modelSource.getState().apiKey).toBe(KEY)
    next.dispose()
  })
})
