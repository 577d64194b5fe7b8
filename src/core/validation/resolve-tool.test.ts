import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../tools/types'
import { resolveTool, unknownToolMessage } from './resolve-tool'

const tools: ToolSpec[] = ['get_weather', 'calculate', 'get_time'].map((name) => ({ name, description: '', inputSchema: {} }))
const record: Record<string, ToolSpec> = Object.fromEntries(tools.map((tool) => [tool.name, tool]))

describe('resolveTool', () => {
  it('finds tools by exact name in a list or a record', () => {
    expect(resolveTool('calculate', tools)?.name).toBe('calculate')
    expect(resolveTool('calculate', record)?.name).toBe('calculate')
    expect(resolveTool('Calculate', tools)).toBeUndefined()
  })

  it('never resolves inherited properties', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(resolveTool(name, tools)).toBeUndefined()
      expect(resolveTool(name, record)).toBeUndefined()
    }
  })
})

describe('unknownToolMessage', () => {
  it('lists the available tools', () => {
    expect(unknownToolMessage('get_wether', tools)).toBe('Unknown tool "get_wether". Available tools: get_weather, calculate, get_time.')
    expect(unknownToolMessage('x', record)).toBe('Unknown tool "x". Available tools: get_weather, calculate, get_time.')
  })

  it('says when there are no tools', () => {
    expect(unknownToolMessage('x', [])).toBe('Unknown tool "x". No tools are available.')
  })
})
