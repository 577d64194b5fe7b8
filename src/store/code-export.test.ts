import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fold } from '../core'
import { examples } from '../examples/index'
import { createLogImportHost } from '../sandbox/log-import-host'
import { createNodeSandbox } from '../sandbox/node-sandbox'
import { CAPTURE_ANSWER, CAPTURE_INPUT, CAPTURE_TOOLS } from '../test/capture-workspace'
import { captureReply, startChatServer, textReply, type ChatServer, type Reply } from '../test/chat-server'
import { inProcessImportWorker } from '../test/in-process-import-worker'
import { exportFolder, runTsx, runVitest, startTsx } from '../test/run-export'
import { createPlayground, type Playground } from './playground'

let server: ChatServer
let pg: Playground
let folder: ReturnType<typeof exportFolder>

beforeEach(async () => {
  server = await startChatServer()
  folder = exportFolder()
  pg = createPlayground({ createSandbox: () => createNodeSandbox(), createImportHost: () => createLogImportHost(inProcessImportWorker) })
  const ws = pg.stores.workspace.getState()
  ws.setTools(CAPTURE_TOOLS)
  ws.setInput(CAPTURE_INPUT)
  ws.setSettings({ systemPrompt: "You're a helpful assistant." })
  pg.stores.modelSource.getState().setSource('endpoint')
})
afterEach(async () => {
  pg.dispose()
  folder.remove()
  await server.close()
})

/** Runs the playground on `replies`, then the exported loop on the same replies; returns both. */
async function playgroundThenExport(protocol: string, stream: boolean, replies: Reply[]) {
  pg.stores.workspace.getState().setSettings({ protocol })
  pg.stores.modelSource.getState().setConfig({ baseUrl: server.baseUrl, model: 'gpt-4o-mini', stream })
  server.enqueue(...replies)
  await pg.run()
  const played = fold(pg.stores.run.getState().events)
  const exported = await pg.exportCode()
  if (!exported.ok) throw new Error(exported.error)
  const file = folder.write(exported.file.fileName, exported.file.text)
  const sent = server.requests.length
  server.enqueue(...replies)
  const ran = await runTsx(file, ['--json'], { cwd: folder.dir, env: { TOOLSTEP_BASE_URL: server.baseUrl } })
  return { played, ran, playgroundRequests: server.requests.slice(0, sent).map((r) => r.body), exportRequests: server.requests.slice(sent).map((r) => r.body), text: exported.file.text }
}

describe('Export → TypeScript loop', () => {
  it('openai, streamed parallel calls: the exported file reaches the playground\'s final answer with the same requests', async () => {
    const { played, ran, playgroundRequests, exportRequests } = await playgroundThenExport('openai', true, [
      captureReply('openai-chat-stream-parallel-tools.response.sse'),
      captureReply('openai-chat-parallel-tools.2.response.json'),
    ])
    expect(played.finalAnswer).toContain(CAPTURE_ANSWER)
    expect(ran.stderr).toBe('')
    expect(ran.code).toBe(0)
    const summary = JSON.parse(ran.stdout) as { stopReason: string; finalAnswer: string; calls: { name: string; arguments: unknown; result: string }[] }
    expect(summary.stopReason).toBe('final_answer')
    expect(summary.finalAnswer).toBe(played.finalAnswer)
    expect(summary.calls.map((c) => [c.name, c.arguments, c.result])).toEqual([
      ['get_current_weather', { location: 'Seattle, WA' }, '50 degrees and raining'],
      ['get_current_weather', { location: 'San Francisco, CA' }, '70 degrees and sunny'],
    ])
    // What the model was sent (system prompt, tools, backfilled results) is what the playground sent.
    expect(exportRequests).toEqual(playgroundRequests)
  })

  it('xml-tag, not streamed: calls parsed out of the content by the bundled parser, same answer and requests', async () => {
    const { played, ran, playgroundRequests, exportRequests, text } = await playgroundThenExport('xml-tag', false, [
      textReply('Checking both.\n<tool_call>{"name": "get_current_weather", "arguments": {"location": "Seattle, WA"}}</tool_call>\n<tool_call>{"name": "get_current_weather", "arguments": {"location": "Boston, MA"}}</tool_call>'),
      textReply('It is 50 degrees and raining in Seattle and 70 degrees and sunny in Boston.'),
    ])
    expect(played.stop?.reason).toBe('final_answer')
    expect(ran.code).toBe(0)
    const summary = JSON.parse(ran.stdout) as { finalAnswer: string; calls: { name: string; result: string }[] }
    expect(summary.finalAnswer).toBe(played.finalAnswer)
    expect(summary.calls.map((c) => c.result)).toEqual(['50 degrees and raining', '70 degrees and sunny'])
    expect(exportRequests).toEqual(playgroundRequests)
    expect((exportRequests[0] as { tools?: unknown }).tools).toBeUndefined()
    expect(text).toContain("const SETTINGS: LoopProgramSettings = {\n  \"protocol\": \"xml-tag\"")
  })

  it('prints the turns and the answer for a person, and exits 2 naming what is missing without a model name', async () => {
    pg.stores.workspace.getState().setSettings({ protocol: 'xml-tag' })
    pg.stores.modelSource.getState().setConfig({ baseUrl: server.baseUrl, model: '', stream: false })
    const exported = await pg.exportCode()
    if (!exported.ok) throw new Error(exported.error)
    const file = folder.write('loop.ts', exported.file.text)
    const missing = await runTsx(file, [], { cwd: folder.dir })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('TOOLSTEP_MODEL')
    server.enqueue(textReply('<tool_call>{"name": "get_current_weather", "arguments": {"location": "Seattle, WA"}}</tool_call>'), textReply('Rainy, 50 degrees.'))
    const ran = await runTsx(file, ['How is Seattle?'], { cwd: folder.dir, env: { TOOLSTEP_MODEL: 'm' } })
    expect(ran.stdout).toContain('→ get_current_weather({"location":"Seattle, WA"}) = 50 degrees and raining')
    expect(ran.stdout).toContain('final answer: Rainy, 50 degrees.')
    expect((server.requests[0]!.body as { messages: { content: string }[] }).messages[1]!.content).toBe('How is Seattle?')
  })

  it('Ctrl-C cancels the request in flight: stop reason aborted, exit 130', async () => {
    pg.stores.workspace.getState().setSettings({ protocol: 'openai' })
    pg.stores.modelSource.getState().setConfig({ baseUrl: server.baseUrl, model: 'slow', stream: true })
    const exported = await pg.exportCode()
    if (!exported.ok) throw new Error(exported.error)
    const file = folder.write('loop.ts', exported.file.text)
    server.enqueue({ kind: 'hang', sendHeaders: true })
    const asked = server.requests.length
    const { child, finished } = startTsx(file, [], { cwd: folder.dir })
    // Ctrl-C once the request is in (an event, not a delay); stop waiting if the program ends first.
    const endedEarly = await Promise.race([server.answered(asked + 1).then(() => false), finished.then(() => true)])
    if (endedEarly) throw new Error(`The exported loop ended before its request was answered:\n${(await finished).stderr}`)
    child.kill('SIGINT')
    const ran = await finished
    expect(ran.code).toBe(130)
    expect(ran.stdout).toContain('stop reason: aborted')
  }, 120_000)

  it('a tools.ts that imports another module cannot be exported, and says why', async () => {
    pg.stores.workspace.getState().setTools(`import { readFileSync } from 'node:fs'\n${CAPTURE_TOOLS}`)
    expect(await pg.exportCode()).toMatchObject({ ok: false, error: expect.stringContaining('imports "node:fs"') })
  })
})

describe('Export → Vitest test', () => {
  it('passes on the recorded run, and fails showing the changed result when a tool answers differently', async () => {
    pg.stores.workspace.getState().setSettings({ protocol: 'openai' })
    pg.stores.modelSource.getState().setConfig({ baseUrl: server.baseUrl, model: 'gpt-4o-mini', stream: true })
    server.enqueue(captureReply('openai-chat-stream-parallel-tools.response.sse'), captureReply('openai-chat-parallel-tools.2.response.json'))
    await pg.run()
    const exported = await pg.exportTest()
    if (!exported.ok) throw new Error(exported.error)
    expect(exported.file.text).toContain('"finalAnswer": "Today, the weather in Seattle is 50 degrees and raining')
    folder.write('recorded.test.ts', exported.file.text)
    const passed = await runVitest(folder.dir)
    expect(passed.stdout + passed.stderr).toMatch(/1 passed/)
    expect(passed.code).toBe(0)

    folder.write('recorded.test.ts', exported.file.text.replace("'50 degrees and raining'", "'52 degrees and raining'"))
    const failed = await runVitest(folder.dir)
    expect(failed.code).not.toBe(0)
    // The diff shows the recorded result beside the new one.
    expect(failed.stdout + failed.stderr).toMatch(/- +"result": "50 degrees and raining"[\s\S]*\+ +"result": "52 degrees and raining"/)
  }, 60_000)

  it('needs a live run', async () => {
    expect(await pg.exportTest()).toMatchObject({ ok: false, error: expect.stringContaining('Run the workspace first') })
  })
})

/** The playground's answer for a mock model output, as an OpenAI-compatible server would send it. */
function replyFor(protocol: string, raw: string): Reply {
  if (protocol !== 'openai') return textReply(raw)
  let message: { tool_calls?: unknown[] }
  try {
    message = JSON.parse(raw) as { tool_calls?: unknown[] }
  } catch {
    // A mock may answer text in any format even under openai: a server sends that as content.
    message = { role: 'assistant', content: raw } as { tool_calls?: unknown[] }
  }
  return { kind: 'json', body: JSON.stringify({ id: 'chatcmpl-parity', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }] }) }
}

describe('the exported loop runs the examples as the playground does', () => {
  const PARITY = ['weather', 'errors', 'validation', 'tool-names', 'parse-retry', 'fallback-chain', 'repeated-call', 'parallel-calls', 'step-limit', 'sequential-calls', 'unknown-arguments', 'result-truncation', 'parse-give-up', 'never-answers']
  it.each(PARITY)('%s: same requests, calls, results, stop reason and answer', async (id) => {
    const example = examples.find((e) => e.id === id)!
    pg.stores.modelSource.getState().setSource('mock')
    pg.stores.workspace.getState().loadExample(id)
    // The example's mock model answers first; its outputs become what the server says.
    await pg.run()
    const raws = pg.stores.run.getState().events.flatMap((e) => (e.type === 'model.responded' ? [e.raw] : []))
    const replies = raws.map((raw) => replyFor(example.protocol, raw))
    pg.stores.modelSource.getState().setSource('endpoint')
    pg.stores.modelSource.getState().setConfig({ baseUrl: server.baseUrl, model: 'm', stream: false })
    server.enqueue(...replies)
    await pg.run()
    const events = pg.stores.run.getState().events
    const played = fold(events)
    const calls = events.flatMap((e) => (e.type === 'tool.finished' && e.parentCallId === undefined ? [{ name: e.name, arguments: e.arguments, ...(e.error !== undefined ? { error: e.error } : { result: e.result }) }] : []))
    const exported = await pg.exportCode()
    if (!exported.ok) throw new Error(exported.error)
    const file = folder.write(`${id}.ts`, exported.file.text)
    const sent = server.requests.length
    server.enqueue(...replies)
    const ran = await runTsx(file, ['--json'], { cwd: folder.dir })
    const summary = JSON.parse(ran.stdout) as { stopReason: string; finalAnswer: string | null; calls: { name: string; arguments: unknown; result?: string; error?: string }[] }
    expect(server.requests.slice(sent).map((r) => r.body)).toEqual(server.requests.slice(0, sent).map((r) => r.body))
    expect(summary.calls.map(({ name, arguments: args, result, error }) => ({ name, arguments: args, ...(error === undefined ? { result } : { error }) }))).toEqual(calls)
    expect(summary.stopReason).toBe(played.stop?.reason)
    expect(summary.finalAnswer).toBe(played.finalAnswer)
  }, 60_000)
})
