/**
 * Looking up a tool by the name the model wrote. Model output is untrusted input, so a name
 * such as `constructor` or `__proto__` must never resolve to something inherited from
 * `Object.prototype` (the AI SDK guards the same way with `getOwn`).
 */

/** Tools as a list, or as a record keyed by tool name. */
export type ToolCollection<T extends { name: string }> = readonly T[] | Readonly<Record<string, T>>

/**
 * Find the tool the model asked for. Pure.
 *
 * @param name - Tool name exactly as the model wrote it (case-sensitive, not trimmed).
 * @param tools - A list (matched on `name`) or a record (matched on own keys only).
 * @returns The tool, or `undefined` when no tool has that name.
 */
export function resolveTool<T extends { name: string }>(name: string, tools: ToolCollection<T>): T | undefined {
  if (isList(tools)) return tools.find((tool) => tool.name === name)
  return Object.hasOwn(tools, name) ? tools[name] : undefined
}

/**
 * The error written back to the model when it calls a tool that does not exist. Pure.
 *
 * @returns `Unknown tool "x". Available tools: a, b, c.` (tools in the order given), or
 *   `Unknown tool "x". No tools are available.` when there are none.
 */
export function unknownToolMessage<T extends { name: string }>(name: string, tools: ToolCollection<T>): string {
  const names = isList(tools) ? tools.map((tool) => tool.name) : Object.keys(tools)
  const available = names.length === 0 ? 'No tools are available.' : `Available tools: ${names.join(', ')}.`
  return `Unknown tool ${JSON.stringify(name)}. ${available}`
}

function isList<T extends { name: string }>(tools: ToolCollection<T>): tools is readonly T[] {
  return Array.isArray(tools)
}
