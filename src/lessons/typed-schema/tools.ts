import { tool, z } from 'toolstep'

// A typed function first, then its schema. The zod object is checked against the function's
// parameter type, so the two cannot drift apart: the TypeScript counterpart of a decorator that
// reads a Python signature. The JSON Schema and the system prompt are built from the zod object.

type Unit = 'celsius' | 'fahrenheit'

function convertTemperature(args: { value: number; to: Unit }): number {
  return args.to === 'fahrenheit' ? Math.round((args.value * 9) / 5 + 32) : Math.round(((args.value - 32) * 5) / 9)
}

/** Builds a tool from a typed function and a schema whose output type must match its parameter. */
function fromFunction<Args>(fn: (args: Args) => unknown, description: string, schema: z.ZodType<Args>) {
  return tool({ description, inputSchema: schema, execute: (args: Args) => fn(args) })
}

export const convert_temperature = fromFunction(
  convertTemperature,
  'Convert a temperature between Celsius and Fahrenheit.',
  z.object({
    // `examples` land in the JSON Schema the model reads: a cheap way to show the expected shape.
    value: z.number().describe('The temperature to convert').meta({ examples: [21, 98.6] }),
    to: z.enum(['celsius', 'fahrenheit']).describe('Unit to convert to'),
  }),
)
