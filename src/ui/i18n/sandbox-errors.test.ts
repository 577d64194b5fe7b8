/**
 * What the sandbox itself says about the user's code reaches the UI as a phrase: in Chinese it is
 * translated (the timeline row of a failed turn, a problem under the editor), and the English the
 * CLI prints and the model reads is unchanged.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createLogImportHost } from '../../sandbox/log-import-host'
import { createNodeSandbox } from '../../sandbox/node-sandbox'
import { inProcessImportWorker } from '../../test/in-process-import-worker'
import { createPlayground, type Playground } from '../../store/playground'
import { memoryStorage } from '../../store/storage'
import { describeEvent } from '../../core/loop'
import { rowSummary } from '../timeline/row-summary'
import { codeProblemText } from './code-errors'
import { createI18n } from './index'

const TOOLS = `import { tool, z } from 'toolstep'
export const add = tool({ description: 'Adds.', inputSchema: z.object({ a: z.number() }), execute: ({ a }) => a })
`
const MODEL = `export default () => 'Done.'`

const open: Playground[] = []
afterEach(() => {
  while (open.length > 0) open.pop()!.dispose()
})

function playground(tools: string, model: string): Playground {
  const pg = createPlayground({ createSandbox: () => createNodeSandbox(), createImportHost: () => createLogImportHost(inProcessImportWorker), storage: memoryStorage() })
  open.push(pg)
  const workspace = pg.currentWorkspace()
  pg.stores.workspace.getState().loadWorkspace({ ...workspace, tools, model, input: 'Add 1.', settings: { ...workspace.settings, protocol: 'openai' } })
  return pg
}

const zh = createI18n('zh-CN').t

describe('the sandbox’s own errors in a Chinese UI', () => {
  it('a route() that returns a number fails the turn with a translated row; the English stays for the CLI', async () => {
    const pg = playground(`${TOOLS}export const route = () => 42\n`, MODEL)
    await pg.run()
    const failed = pg.stores.run.getState().events.find((e) => e.type === 'model.failed')
    expect(failed?.type === 'model.failed' && failed.error).toBe('route() must return an array of tool names, not a number.')
    const row = rowSummary(zh, failed!)
    expect(row.detail).toBe('模型出错：route() 必须返回由工具名组成的数组，而不是数字。')
    expect(describeEvent(failed!).detail).toBe('model failed: route() must return an array of tool names, not a number.')
  })

  it('route() naming unknown tools, in the plural, keeps the names as they are', async () => {
    const pg = playground(`${TOOLS}export const route = () => ['nope', 'nix']\n`, MODEL)
    await pg.run()
    const failed = pg.stores.run.getState().events.find((e) => e.type === 'model.failed')
    expect(failed?.type === 'model.failed' && failed.error).toBe('route() returned unknown tool names: "nope", "nix". Available tools: add.')
    expect(rowSummary(zh, failed!).detail).toBe('模型出错：route() 返回了未知的工具名："nope", "nix"。可用的工具：add。')
  })

  it('model.ts returning a number, and a default export that is not a function, are translated', async () => {
    const returns = playground(TOOLS, `export default () => 7`)
    await returns.run()
    const failed = returns.stores.run.getState().events.find((e) => e.type === 'model.failed')
    expect(failed?.type === 'model.failed' && failed.error).toBe('model.ts must return a string or an assistant message { content, tool_calls }, not a number.')
    expect(rowSummary(zh, failed!).detail).toBe('模型出错：model.ts 必须返回字符串，或 assistant 消息 { content, tool_calls }，而不是数字。')

    const notFunction = playground(TOOLS, `export default 42`)
    await notFunction.run()
    const problem = notFunction.stores.run.getState().problems[0]
    expect(problem?.message).toBe('The default export of model.ts must be a function of (ctx: ModelContext), not a number.')
    expect(codeProblemText(zh, problem!)).toEqual({ text: 'model.ts 的默认导出必须是函数 (ctx: ModelContext)，而不是数字。' })
  })
})
