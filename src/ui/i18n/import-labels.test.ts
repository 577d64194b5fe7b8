/**
 * The words Toolstep puts around a log's own values when it names what it imported: conversation
 * labels ("task 3 · trial 1", "… · 2 turns", "conversation 0"), what stands for several files
 * ("4 files"), what a re-check runs against, and the JSON type names in "expected …, got …". The
 * English (what the CLI prints and searches) stays as it was; the UI shows them translated.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { importLog, importLogFiles } from '../../core/trace'
import { prepareArguments } from '../../core/validation'
import type { ToolSpec } from '../../core/tools'
import { createLogImportHost } from '../../sandbox/log-import-host'
import { createNodeSandbox } from '../../sandbox/node-sandbox'
import { inProcessImportWorker } from '../../test/in-process-import-worker'
import { createPlayground, type Playground } from '../../store/playground'
import { memoryStorage } from '../../store/storage'
import { createI18n } from './index'
import { conversationLabel, coreText, corePhrase, fileLabel, translate } from './text'
import { verdictText } from './core-text'

const zh = createI18n('zh-CN').t
const en = createI18n('en').t
const root = path.join(import.meta.dirname, '..', '..', 'core')
const captures = path.join(root, 'trace', '__fixtures__', 'captures')
const readCapture = (name: string) => ({ name, text: readFileSync(path.join(captures, name), 'utf8') })

function conversations(text: string) {
  const result = importLog(text)
  if (!result.ok) throw new Error(result.error)
  return result.conversations
}

describe('conversation labels', () => {
  it('τ-bench records: "task 3 · trial 0 · reward 1" in English for the CLI, in Chinese on the page', () => {
    const [first] = conversations(JSON.stringify([{ task_id: 3, trial: 0, reward: 1, traj: [{ role: 'user', content: 'hi' }] }]))
    expect(first!.label).toBe('task 3 · trial 0 · reward 1')
    expect(conversationLabel(en, first!)).toBe('task 3 · trial 0 · reward 1')
    expect(conversationLabel(zh, first!)).toBe('任务 3 · 试验 0 · 奖励 1')
  })

  it('a bare messages array is "conversation 0"; a record with its own id keeps the id as it is', () => {
    const [bare] = conversations(JSON.stringify([{ role: 'user', content: 'hi' }]))
    expect(bare!.label).toBe('conversation 0')
    expect(conversationLabel(zh, bare!)).toBe('对话 0')
    const [own] = conversations(JSON.stringify([{ id: 'run-7', messages: [{ role: 'user', content: 'hi' }] }]))
    expect(own!.label).toBe('run-7')
    expect(own!.labelPhrase).toBeUndefined()
    expect(conversationLabel(zh, own!)).toBe('run-7')
  })

  it('recorded request/response files: "NAME · 2 turns" and a streamed reply, the capture name as it is', () => {
    const names = ['1.request.json', '1.response.json', '2.request.json', '2.response.json'].map((end) => `openai-chat-parallel-tools.${end}`)
    const result = importLogFiles(names.map(readCapture))
    if (!result.ok) throw new Error(result.error)
    expect(result.conversations.map((c) => c.label)).toEqual(['openai-chat-parallel-tools · 2 turns'])
    expect(conversationLabel(zh, result.conversations[0]!)).toBe('openai-chat-parallel-tools · 2 轮')
    const stream = importLog(readCapture('openai-chat-stream-refusal.response.sse').text)
    if (!stream.ok) throw new Error(stream.error)
    expect(stream.conversations[0]!.label).toMatch(/ \(streamed\)$/)
    expect(conversationLabel(zh, stream.conversations[0]!)).toMatch(/（流式）$/)
  })
})

describe('JSON type names after "got"', () => {
  it('an import error: the CLI says "got number", the page the type in Chinese', () => {
    const result = importLog(JSON.stringify({ messages: [{ role: 'tool', tool_call_id: 7, content: 'x' }] }))
    if (result.ok) throw new Error('imported')
    expect(result.error).toContain('a tool message needs a string "tool_call_id", got number')
    expect(translate(zh, corePhrase('trace', result.errorPhrase!))).toContain('工具消息需要字符串类型的 "tool_call_id"，实际为 数字')
    expect(translate(en, corePhrase('trace', result.errorPhrase!))).toBe(result.error)
  })

  it('a validation problem: the model reads "got boolean true", the page the type in Chinese and the value as it is', () => {
    const spec: ToolSpec = { name: 'f', description: '', inputSchema: { type: 'object', properties: { n: { type: 'integer' }, list: { type: 'object' } } } }
    const prepared = prepareArguments(spec, { n: true, list: '[1]' }, { unknownArguments: 'drop', coerce: false })
    expect(prepared.problems).toEqual(['"n" must be an integer, got boolean true', '"list" must be an object, got a JSON-encoded array in a string'])
    const zhProblems = prepared.problems.map((_, i) => verdictText(zh, prepared.problems, prepared.phrases.problems, i).text)
    expect(zhProblems).toEqual(['"n" 必须是整数，实际收到 布尔值 true', '"list" 必须是对象，实际收到的是装在字符串里的 JSON 编码数组'])
  })
})

describe('what stands for a file name in the stores', () => {
  const open: Playground[] = []
  afterEach(() => {
    while (open.length > 0) open.pop()!.dispose()
  })

  function playground(): Playground {
    const pg = createPlayground({ createSandbox: () => createNodeSandbox(), createImportHost: () => createLogImportHost(inProcessImportWorker), storage: memoryStorage() })
    open.push(pg)
    return pg
  }

  it('several recorded files: "Imported 1 conversation from 4 files." in English, "4 个文件" on the page and in the replay bar', async () => {
    const pg = playground()
    const names = ['1.request.json', '1.response.json', '2.request.json', '2.response.json'].map((end) => `openai-chat-parallel-tools.${end}`)
    const outcome = await pg.importFiles(names.map((name) => new File([readCapture(name).text], name, { type: 'application/json' })))
    expect(outcome.message).toBe('Imported 1 conversation from 4 files.')
    expect(translate(zh, coreText('store', outcome.phrases))).toBe('已从 4 个文件 导入 1 个对话。')
    expect(translate(en, coreText('store', outcome.phrases))).toBe(outcome.message)
    const { fileName, fileNamePhrase } = pg.stores.replay.getState()
    expect(fileName).toBe('4 files')
    expect(fileLabel(zh, fileName!, fileNamePhrase)).toBe('4 个文件')
  })

  it('a request and its response dropped together are listed by their file name in every language, as the CLI names them', async () => {
    const pg = playground()
    const names = ['anthropic-messages-tool-result.request.json', 'anthropic-messages-tool-result.response.json']
    await pg.importFiles(names.map((name) => new File([readCapture(name).text], name, { type: 'application/json' })))
    const [listed] = pg.stores.replay.getState().conversations
    expect(conversationLabel(en, listed!)).toBe('anthropic-messages-tool-result')
    expect(conversationLabel(zh, listed!)).toBe('anthropic-messages-tool-result')
  })

  it('the re-check after the tools file is dropped names the log’s own tool definitions in the UI language', async () => {
    const pg = playground()
    await pg.importFile(new File([JSON.stringify([{ role: 'user', content: 'hi' }])], 'log.json'))
    const seen: { fileName: string; fileNamePhrase?: Parameters<typeof fileLabel>[2] }[] = []
    const stop = pg.stores.replay.subscribe((state) => {
      if (state.importing) seen.push(state.importing)
    })
    await pg.clearReplayTools()
    stop()
    expect(seen.length).toBeGreaterThan(0)
    expect(seen[0]!.fileName).toBe('the log’s own tool definitions')
    expect(fileLabel(zh, seen[0]!.fileName, seen[0]!.fileNamePhrase)).toBe('日志自带的工具定义')
  })

  it('Save as mock model before a run says why in the UI language (the English as before)', () => {
    const result = playground().saveAsMock()
    if (result.ok) throw new Error('saved')
    expect(result.error).toBe('Run the workspace first: Save as mock model records a live run.')
    expect(translate(zh, corePhrase('store', result.phrase!))).toBe('请先运行工作区：“保存为模拟模型”记录的是一次实时运行。')
  })

  it('a run with the endpoint chosen but no model name says what to set in the UI language (the English as before)', async () => {
    const pg = playground()
    pg.stores.modelSource.getState().setSource('endpoint')
    pg.stores.modelSource.getState().setConfig({ model: '' })
    await pg.run()
    const [problem] = pg.stores.run.getState().problems
    expect(problem!.message).toBe('Set the endpoint model name (e.g. qwen3:8b) or choose the mock model.')
    expect(translate(zh, corePhrase('store', problem!.phrase!))).toBe('请设置端点的模型名（例如 qwen3:8b），或选择模拟模型。')
    pg.stores.modelSource.getState().setConfig({ baseUrl: ' ' })
    await pg.run()
    expect(translate(zh, corePhrase('store', pg.stores.run.getState().problems[0]!.phrase!))).toBe('请设置端点 URL（例如 http://127.0.0.1:11434/v1），或选择模拟模型。')
  })

  it('an export refused for tools.ts, and one refused for want of a run, say why in the UI language (the English as the CLI prints it)', async () => {
    const pg = playground()
    pg.stores.workspace.getState().setTools(`import { readFileSync } from 'node:fs'\nexport const x = 1\n`)
    const code = await pg.exportCode()
    if (code.ok) throw new Error('exported')
    expect(code.error).toBe('tools.ts imports "node:fs": an exported loop can only use zod and the toolstep authoring API (tool, z).')
    expect(translate(en, corePhrase('store', code.phrase))).toBe(code.error)
    expect(translate(zh, corePhrase('store', code.phrase))).toBe('tools.ts 导入了 "node:fs"：导出的循环只能使用 zod 和 toolstep 的编写 API（tool、z）。')
    const test = await pg.exportTest()
    if (test.ok) throw new Error('exported')
    expect(test.error).toBe('Run the workspace first: the Vitest test replays the model outputs of a live run.')
    expect(translate(zh, corePhrase('store', test.phrase))).toBe('请先运行工作区：Vitest 测试回放的是一次实时运行的模型输出。')
  })
})
