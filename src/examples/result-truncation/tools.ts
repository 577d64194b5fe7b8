import { tool, z } from 'toolstep'

// A tool that returns far more text than the model needs. Results longer than Max result chars
// (here 600) are cut, and a marker says how much was shown, so the model knows it is not
// seeing everything (instead of treating the cut text as complete).

export const read_file = tool({
  description: 'Read a text file.',
  inputSchema: z.object({ path: z.string().min(1) }),
  execute: ({ path }) => {
    const lines: string[] = []
    for (let line = 1; lines.join('\n').length < 5000; line += 1) lines.push(`${path}:${line}  const value${line} = compute(${line}) // line ${line} of the file`)
    return lines.join('\n').slice(0, 5000)
  },
})
