import { answer, callTools, type ModelContext, type ModelResult, type ToolMessage } from 'toolstep'

// Each turn speaks a different wire format, whatever protocol was picked:
// 1. a native OpenAI tool call, 2. a fenced JSON object, 3. a <tool_call> tag with a
// Qwen3-Coder XML body, which only the xml-tag parser reads (a JSON body would already be found
// by the json parser, the chain's second link; "100" becomes 100 by the coercion policy).
const QWEN_XML = `And the money.
<tool_call>
<function=convert_currency>
<parameter=amount>
100
</parameter>
<parameter=from>
EUR
</parameter>
<parameter=to>
JPY
</parameter>
</function>
</tool_call>`

export default function model(ctx: ModelContext): ModelResult {
  const results = ctx.messages.filter((message): message is ToolMessage => message.role === 'tool')
  switch (results.length) {
    case 0:
      return callTools('openai', [{ name: 'get_weather', arguments: { city: 'Tokyo' } }])
    case 1:
      return callTools('json', [{ name: 'get_time', arguments: { timezone: 'Asia/Tokyo' } }], 'Now the local time.')
    case 2:
      return QWEN_XML
    default:
      return answer(ctx.protocol, `Three formats, three results:\n${results.map((result) => `${result.name}: ${result.content}`).join('\n')}`)
  }
}
