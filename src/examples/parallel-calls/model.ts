import { answer, toolResults, type ModelContext, type ModelResult } from 'toolstep'

// One output, four calls: two to get_weather (Paris, Oslo), one that fails (Atlantis), and a
// packing list that depends on the Paris call. In the json protocol each call object may carry
// "id" and "dependsOn"; in openai the ids are the tool_call ids; xml-tag calls carry neither, so
// there the loop generates ids and the packing list runs alongside the others.

const CALLS = [
  { id: 'paris', name: 'get_weather', arguments: { city: 'Paris' } },
  { id: 'oslo', name: 'get_weather', arguments: { city: 'Oslo' } },
  { id: 'atlantis', name: 'get_weather', arguments: { city: 'Atlantis' } },
  { id: 'pack', name: 'packing_list', arguments: { city: 'Paris' }, dependsOn: ['paris'] },
]

function write(protocol: string): ModelResult {
  if (protocol === 'openai') {
    return {
      role: 'assistant',
      content: 'Checking all three cities at once.',
      tool_calls: CALLS.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: JSON.stringify(call.arguments) } })),
    }
  }
  if (protocol === 'json') {
    const blocks = CALLS.map((call) => {
      const object = { id: call.id, tool: call.name, arguments: call.arguments, ...(call.dependsOn ? { dependsOn: call.dependsOn } : {}) }
      return '```json\n' + JSON.stringify(object) + '\n```'
    })
    return ['Checking all three cities at once.', ...blocks].join('\n\n')
  }
  return (
    'Checking all three cities at once.\n' +
    CALLS.map((call) => `<tool_call>${JSON.stringify({ name: call.name, arguments: call.arguments })}</tool_call>`).join('\n')
  )
}

export default function model(ctx: ModelContext): ModelResult {
  const results = toolResults(ctx.messages)
  if (results.length === 0) return write(ctx.protocol)
  const lines = results.map((result) => `${result.tool_call_id} (${result.name}): ${result.isError ? 'failed — ' : ''}${result.content}`)
  return answer(ctx.protocol, `Every call came back, in order:\n${lines.join('\n')}`)
}
