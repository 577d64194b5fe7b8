/**
 * The parts of a system-prompt section that every protocol shares: the tool list and example
 * arguments derived from a tool's JSON Schema.
 */
import type { JsonValue } from '../../messages'
import type { JsonSchema, ToolSpec } from '../../tools/types'

/** Stand-in used for the example call when no tool is offered. */
export const PLACEHOLDER_TOOL: ToolSpec = {
  name: 'tool_name',
  description: 'A tool.',
  inputSchema: { type: 'object', properties: { argument: { type: 'string' } }, required: ['argument'] },
}

function asSchema(value: unknown): JsonSchema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined
}

/** True for a JSON value (finite numbers only). Iterative: an example or default may nest to any depth. */
function isJsonValue(value: unknown): value is JsonValue {
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const item = pending.pop()
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return false
      continue
    }
    if (typeof item !== 'object') return false
    // A loop, not a spread: a spread of a long array exceeds the engine's argument limit.
    for (const member of Array.isArray(item) ? item : Object.values(item)) pending.push(member)
  }
  return true
}

/** A plausible value for a JSON Schema: its example, default or first enum value, else a placeholder by type. */
export function exampleValue(schema: JsonSchema | undefined, depth = 0): JsonValue {
  if (!schema || depth > 4) return '...'
  const examples = schema.examples
  if (Array.isArray(examples) && examples.length > 0 && isJsonValue(examples[0])) return examples[0]
  if (isJsonValue(schema.default) && schema.default !== null) return schema.default
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && isJsonValue(schema.enum[0])) return schema.enum[0]
  if (isJsonValue(schema.const)) return schema.const
  const variants = schema.anyOf ?? schema.oneOf
  if (Array.isArray(variants) && variants.length > 0) return exampleValue(asSchema(variants[0]), depth + 1)
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      return '...'
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1
    case 'boolean':
      return true
    case 'null':
      return null
    case 'array':
      return [exampleValue(asSchema(schema.items), depth + 1)]
    case 'object':
      return exampleArguments(schema, depth + 1)
    default:
      return schema.properties ? exampleArguments(schema, depth + 1) : '...'
  }
}

/** Example arguments for a tool: its required properties (all of them when none is marked required). */
export function exampleArguments(schema: JsonSchema, depth = 0): { [key: string]: JsonValue } {
  const properties = asSchema(schema.properties) ?? {}
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : []
  const keys = required.length > 0 ? required : Object.keys(properties)
  const out: { [key: string]: JsonValue } = {}
  for (const key of keys) out[key] = exampleValue(asSchema(properties[key]), depth)
  return out
}

/**
 * The tool list: name, description and the JSON Schema of the arguments (pretty-printed), one
 * Markdown section per tool.
 */
export function renderToolList(tools: readonly ToolSpec[]): string {
  if (tools.length === 0) return '## Tools\n\nNo tools are available.'
  const sections = tools.map(
    (tool) => `### ${tool.name}\n${tool.description}\nArguments (JSON Schema):\n\`\`\`json\n${JSON.stringify(tool.inputSchema, null, 2)}\n\`\`\``,
  )
  return `## Tools\n\nYou can call these tools.\n\n${sections.join('\n\n')}`
}

/**
 * A complete instructions section: the tool list, then `## How to call a tool` with the format's
 * rules and an example built from the first tool.
 *
 * @param rules the format's rules, one per line
 * @param example renders one call in the format
 */
export function renderInstructions(
  tools: readonly ToolSpec[],
  rules: readonly string[],
  example: (name: string, args: { [key: string]: JsonValue }) => string,
): string {
  const tool = tools[0] ?? PLACEHOLDER_TOOL
  const call = example(tool.name, exampleArguments(tool.inputSchema))
  return `${renderToolList(tools)}\n\n## How to call a tool\n\n${rules.map((rule) => `- ${rule}`).join('\n')}\n\nExample:\n${call}`
}
