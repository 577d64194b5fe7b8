import { answer, callTools, lastToolResult, type ModelContext, type ModelResult } from 'toolstep'

// Reads a 5 000-character file, then says whether the result carried the truncation marker.
export default function model(ctx: ModelContext): ModelResult {
  const result = lastToolResult(ctx.messages)
  if (!result) return callTools(ctx.protocol, [{ name: 'read_file', arguments: { path: 'src/big.ts' } }])
  const marker = /…\[truncated: showing (\d+) of (\d+) chars\]/.exec(result.content)
  return answer(ctx.protocol, marker ? `I saw only ${marker[1]} of ${marker[2]} characters of src/big.ts; ask me to read a smaller part for the rest.` : 'I read the whole file.')
}
