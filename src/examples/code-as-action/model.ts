import { lastToolResult, type ModelContext, type ModelResult } from 'toolstep'

// The block below is what the model "writes". Tools are async functions; namespaced tools are
// objects (weather.current). Only console output comes back, so the code prints what it needs.
const CODE = `const cities = ['Paris', 'Madrid']
for (const city of cities) {
  const now = await weather.current({ city })
  const { fahrenheit } = await convert_temperature({ celsius: now.temperatureC })
  console.log(\`\${city}: \${now.temperatureC} °C = \${fahrenheit} °F\`)
}`

// Code-as-action output is plain text with a fenced block, whatever the protocol.
export default function model(ctx: ModelContext): ModelResult {
  const result = lastToolResult(ctx.messages)
  if (!result) return `I'll compute this in one go.\n\n\`\`\`js\n${CODE}\n\`\`\``
  return result.isError ? `The code failed: ${result.content}` : `Here is what the code printed:\n${result.content}`
}
