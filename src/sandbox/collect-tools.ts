/**
 * Finds the tools and hooks among the exports of `tools.ts`.
 *
 * Tools come from three places, which may be mixed:
 * - named exports made by `tool()`: `export const get_weather = tool(…)` declares `get_weather`;
 * - the entries of a default-exported object: `export default { get_weather: tool(…) }`;
 * - namespaces, plain objects of tools (nested as deep as wanted):
 *   `export const weather = { current: tool(…) }` declares `weather.current`.
 * `tool({ name: 'weather.current', … })` sets the full name explicitly, wherever it is exported.
 * The exports `route` and `summarize` are hooks, never tools.
 *
 * Pure: no DOM or Node APIs; runs in the sandbox worker and in unit tests.
 */
import { z } from 'zod'
import type { Hooks, LoadedTool } from './protocol'
import { TOOL_MARKER } from './tool-marker'
import { serializeError } from './user-errors'

/** Tool names the model may call: letters, digits, `_`, `-`, `.` (for namespaces), at most 64. */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/

/** Deepest namespace nesting followed; deeper objects are most likely data, not tools. */
const MAX_NAMESPACE_DEPTH = 4

/** Export names that are hooks, not tools. */
export const HOOK_NAMES = ['route', 'summarize'] as const
/** The name of one hook. */
export type HookName = (typeof HOOK_NAMES)[number]

/** A tool ready to run: its spec, the zod schema to parse arguments with, and `execute`. */
export interface RuntimeTool {
  spec: LoadedTool
  schema: z.ZodType
  execute: (args: unknown, options: { toolCallId: string }) => unknown
}

/** What {@link collectTools} found. */
export interface Collected {
  /** Tools by full name, in declaration order. */
  tools: Map<string, RuntimeTool>
  /** Alias → full tool name. */
  aliases: Map<string, string>
  /** The hook functions that were exported. */
  hooks: Partial<Record<HookName, (...args: never[]) => unknown>>
}

/**
 * Where a tool was defined, as a path of keys from the module's exports (`['weather', 'current']`,
 * `['default', 'get_weather']`), plus the explicit `name` when `tool()` set one.
 */
interface Place {
  path: string[]
  explicitName?: string
}

/**
 * Thrown while collecting tools. Carries a position when the definition could be found in the
 * source, so the editor can mark it.
 */
export class ToolDefinitionError extends Error {
  override name = 'ToolDefinitionError'
  constructor(
    message: string,
    readonly place?: Place,
  ) {
    super(message)
  }
}

/** True for the objects `tool()` returns, and for objects shaped like a tool definition. */
export function isToolLike(value: unknown): value is Record<PropertyKey, unknown> {
  if (typeof value !== 'object' || value === null) return false
  return TOOL_MARKER in value || 'execute' in value || 'inputSchema' in value
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value && 'safeParseAsync' in value
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** True when `value` is a plain object holding at least one tool, directly or in a nested namespace. */
function holdsTools(value: unknown, depth = 0): boolean {
  if (!isPlainObject(value) || depth > MAX_NAMESPACE_DEPTH) return false
  return Object.values(value).some((entry) => isToolLike(entry) || holdsTools(entry, depth + 1))
}

/** `the named export "a"`, `"current" in the export "weather"`, `"a" in the default export`. */
export function describePlace(place: Place): string {
  const [root, ...rest] = place.path
  let text: string
  if (root === 'default') {
    text = rest.length === 0 ? 'the default export' : `"${rest.join('.')}" in the default export`
  } else if (rest.length === 0) {
    text = `the named export "${root}"`
  } else {
    text = `"${rest.join('.')}" in the export "${root}"`
  }
  return place.explicitName === undefined ? text : `tool({ name: "${place.explicitName}" }) at ${text}`
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')
}

/**
 * Best-effort position of a definition: an explicit `name: 'x'` when there is one, else each key
 * of the path in turn (`export const weather` …then `current:` below it). The error is about a
 * value, so no stack frame points at it.
 */
export function locatePlace(source: string, place: Place): { line?: number; column?: number } {
  const lines = source.split('\n')
  const find = (pattern: RegExp, from: number, needle: string): { index: number; column: number } | undefined => {
    for (let index = from; index < lines.length; index += 1) {
      const text = lines[index] as string
      const match = pattern.exec(text)
      if (match) return { index, column: text.indexOf(needle, match.index) + 1 }
    }
    return undefined
  }
  if (place.explicitName !== undefined) {
    const escaped = escapeRegExp(place.explicitName)
    const found = find(new RegExp(`\\bname\\s*:\\s*["'\`]${escaped}["'\`]`), 0, place.explicitName)
    if (found) return { line: found.index + 1, column: found.column }
  }
  let from = 0
  let last: { index: number; column: number } | undefined
  for (const [depth, key] of place.path.entries()) {
    const escaped = escapeRegExp(key)
    const pattern =
      depth === 0 && key === 'default'
        ? /\bexport\s+default\b/
        : depth === 0
          ? new RegExp(`\\b(?:const|let|var|function)\\s+${escaped}\\b`)
          : new RegExp(`(?:^|[\\s{,])["']?${escaped}["']?\\s*[:,}]|(?:^|[\\s{,])${escaped}\\s*$`)
    const found = find(pattern, from, depth === 0 && key === 'default' ? 'default' : key)
    if (!found) break
    last = found
    from = found.index
  }
  return last ? { line: last.index + 1, column: last.column } : {}
}

/**
 * Finds the tools and hooks among a module's exports. Other named exports (helpers, data) are
 * ignored. `source` (the module's text) is only used to give lines in error messages. Throws a {@link ToolDefinitionError} for anything invalid, for a name declared twice
 * (naming both places), and for an alias that clashes with another tool.
 */
export function collectTools(exports: Record<string, unknown>, source = ''): Collected {
  /** A place with its line, when it can be found in the source: `the named export "a" (line 2)`. */
  const located = (place: Place): string => {
    const { line } = locatePlace(source, place)
    return line === undefined ? describePlace(place) : `${describePlace(place)} (line ${line})`
  }
  const candidates: { name: string; definition: Record<PropertyKey, unknown>; place: Place }[] = []
  const hooks: Collected['hooks'] = {}

  const addHook = (name: HookName, value: unknown, place: Place): void => {
    if (typeof value !== 'function') {
      throw new ToolDefinitionError(
        `"${name}" is reserved for the ${name === 'route' ? 'routing' : 'result-summarizing'} hook and must be a function, e.g. \`export function ${name === 'route' ? 'route({ messages, tools, step })' : 'summarize(result, { tool, maxChars })'} { … }\`.`,
        place,
      )
    }
    if (hooks[name] !== undefined && hooks[name] !== value) {
      throw new ToolDefinitionError(`The "${name}" hook is exported twice (as a named export and in the default export).`, place)
    }
    hooks[name] = value as (...args: never[]) => unknown
  }

  /** Adds `value` found at `path`: a tool, or a namespace to walk. `strict` reports non-tools. */
  const visit = (value: unknown, path: string[], strict: boolean): void => {
    const place: Place = { path }
    if (isToolLike(value)) {
      const explicit = value.name
      if (explicit !== undefined) {
        if (typeof explicit !== 'string' || !TOOL_NAME.test(explicit)) {
          throw new ToolDefinitionError(
            `The tool at ${describePlace(place)}: \`name\` must be a tool name (letters, digits, "_", "-", "."; at most 64 characters).`,
            place,
          )
        }
        candidates.push({ name: explicit, definition: value, place: { path, explicitName: explicit } })
      } else {
        candidates.push({ name: path.filter((key, index) => !(index === 0 && key === 'default')).join('.'), definition: value, place })
      }
      return
    }
    if (holdsTools(value) && path.length <= MAX_NAMESPACE_DEPTH) {
      for (const [key, entry] of Object.entries(value as Record<string, unknown>)) visit(entry, [...path, key], true)
      return
    }
    if (strict) {
      const name = path.filter((key, index) => !(index === 0 && key === 'default')).join('.')
      throw new ToolDefinitionError(
        path[0] === 'default' && path.length === 2
          ? `"${name}" in the default export is not a tool; wrap it with tool({ description, inputSchema, execute }).`
          : `"${name}" is in a namespace of tools but is not a tool; wrap it with tool({ description, inputSchema, execute }), or move it out of the namespace.`,
        place,
      )
    }
  }

  for (const [key, value] of Object.entries(exports)) {
    if (key === 'default') continue
    if ((HOOK_NAMES as readonly string[]).includes(key)) {
      addHook(key as HookName, value, { path: [key] })
      continue
    }
    visit(value, [key], false)
  }

  const fallback = exports.default
  if (fallback !== undefined) {
    if (isToolLike(fallback) && fallback.name === undefined) {
      throw new ToolDefinitionError(
        'The default export is a single tool, so it has no name. Export it by name (`export const my_tool = tool(…)`), as `export default { my_tool: tool(…) }`, or give it one with tool({ name: "my_tool", … }).',
        { path: ['default'] },
      )
    }
    if (isToolLike(fallback)) {
      visit(fallback, ['default'], true)
    } else if (!isPlainObject(fallback)) {
      throw new ToolDefinitionError('The default export of tools.ts must be an object of tools, e.g. `export default { get_weather: tool(…) }`.', {
        path: ['default'],
      })
    } else {
      for (const [key, value] of Object.entries(fallback)) {
        if ((HOOK_NAMES as readonly string[]).includes(key) && !isToolLike(value)) {
          addHook(key as HookName, value, { path: ['default', key] })
          continue
        }
        visit(value, ['default', key], true)
      }
    }
  }

  const tools = new Map<string, RuntimeTool>()
  const seen = new Map<string, { definition: unknown; place: Place }>()
  for (const { name, definition, place } of candidates) {
    if ((HOOK_NAMES as readonly string[]).includes(name)) {
      throw new ToolDefinitionError(`A tool cannot be named "${name}": that name is reserved for the ${name} hook.`, place)
    }
    const earlier = seen.get(name)
    if (earlier) {
      // `export const a = tool(…); export default { a }` names the same tool twice: not a clash.
      if (earlier.definition === definition) continue
      throw new ToolDefinitionError(
        `Tool "${name}" is defined twice: by ${located(earlier.place)} and by ${located(place)}. Tool names must be unique; rename one of them.`,
        place,
      )
    }
    seen.set(name, { definition, place })
    tools.set(name, checkTool(name, definition, place))
  }

  const aliases = new Map<string, string>()
  for (const [name, entry] of tools) {
    for (const alias of entry.spec.aliases ?? []) {
      if (tools.has(alias) || aliases.has(alias)) {
        throw new ToolDefinitionError(`Alias "${alias}" of tool "${name}" is already the name or alias of another tool.`, seen.get(name)?.place)
      }
      aliases.set(alias, name)
    }
  }
  return { tools, aliases, hooks }
}

/** Which hooks were found, as reported to the host. */
export function hookFlags(hooks: Collected['hooks']): Hooks {
  return { route: hooks.route !== undefined, summarize: hooks.summarize !== undefined }
}

/** Checks one definition and converts its schema. Throws a {@link ToolDefinitionError} that names the tool. */
function checkTool(name: string, definition: Record<PropertyKey, unknown>, place: Place): RuntimeTool {
  const fail = (problem: string): never => {
    throw new ToolDefinitionError(`Tool "${name}": ${problem}`, place)
  }
  if (!TOOL_NAME.test(name)) fail('names may only use letters, digits, "_", "-" and ".", at most 64 characters.')
  if (name.startsWith('.') || name.endsWith('.') || name.includes('..')) fail('a namespaced name needs a part on each side of every ".", e.g. "weather.current".')
  const { description, inputSchema, execute, dangerous, timeoutMs, aliases, argumentAliases } = definition
  if (typeof description !== 'string') fail('`description` must be a string.')
  if (!isZodSchema(inputSchema)) fail('`inputSchema` must be a zod schema, e.g. z.object({ city: z.string() }).')
  if (typeof execute !== 'function') fail('`execute` must be a function.')
  if (dangerous !== undefined && typeof dangerous !== 'boolean') fail('`dangerous` must be true or false.')
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    fail('`timeoutMs` must be a positive whole number of milliseconds.')
  }
  if (aliases !== undefined && !(Array.isArray(aliases) && aliases.every((alias) => typeof alias === 'string' && TOOL_NAME.test(alias)))) {
    fail('`aliases` must be an array of tool names.')
  }
  if (
    argumentAliases !== undefined &&
    !(isPlainObject(argumentAliases) && Object.values(argumentAliases).every((target) => typeof target === 'string' && target !== ''))
  ) {
    fail('`argumentAliases` must map alias names to argument names, e.g. { city_name: "city" }.')
  }
  const schema = inputSchema as z.ZodType
  let jsonSchema: Record<string, unknown>
  try {
    // `io: 'input'`: the model writes the input side (fields with defaults are optional to it).
    jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  } catch (error) {
    return fail(`its input schema cannot be converted to JSON Schema (${serializeError(error).message}).`)
  }
  if (jsonSchema.type !== 'object') fail('`inputSchema` must be an object schema (tool arguments are a JSON object), e.g. z.object({ … }).')
  // The draft URI tells the model nothing and costs prompt space.
  delete jsonSchema.$schema
  dropSafeIntegerBounds(jsonSchema)
  const spec: LoadedTool = { name, description: description as string, inputSchema: jsonSchema }
  if (dangerous !== undefined) spec.dangerous = dangerous as boolean
  if (timeoutMs !== undefined) spec.timeoutMs = timeoutMs as number
  if (aliases !== undefined && (aliases as string[]).length > 0) spec.aliases = [...(aliases as string[])]
  if (argumentAliases !== undefined) {
    const renames = argumentAliases as Record<string, string>
    const properties = jsonSchema.properties
    for (const [alias, target] of Object.entries(renames)) {
      // An alias for an argument the schema does not have would silently never apply.
      if (typeof properties === 'object' && properties !== null && !Object.hasOwn(properties, target)) {
        fail(`\`argumentAliases\` maps "${alias}" to "${target}", which is not an argument of this tool.`)
      }
    }
    if (Object.keys(renames).length > 0) spec.argumentAliases = { ...renames }
  }
  return { spec, schema, execute: execute as RuntimeTool['execute'] }
}

/**
 * zod writes `.int()` as `minimum: -9007199254740991, maximum: 9007199254740991` (the safe-integer
 * range). To a model those bounds are noise that reads like a real limit, so they are removed.
 */
function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(dropSafeIntegerBounds)
    return
  }
  if (typeof node !== 'object' || node === null) return
  const record = node as Record<string, unknown>
  if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum
  if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum
  Object.values(record).forEach(dropSafeIntegerBounds)
}
