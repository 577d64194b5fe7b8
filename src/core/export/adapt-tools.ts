/**
 * Makes a workspace's `tools.ts` part of a single exported file: its `import … from 'toolstep'`
 * lines are replaced (the file defines `tool` itself and imports `z` from zod), `export default`
 * becomes a named constant, and the module's exports are listed so the exported loop can load
 * them as the sandbox does. The code itself is kept as the user wrote it.
 *
 * Works on the source text with line-anchored regular expressions (no backtracking over nested
 * quantifiers, so linear in the source length). It understands the import and export forms a
 * tools.ts uses; anything else it cannot keep is reported as an {@link ExportError}.
 */
import type { Phrase } from '../util/phrase'
import { exportEnglish, exportPhrase } from './export-text'

/**
 * Why a workspace cannot be exported; the message says what to change, and `phrase` (a phrase of
 * `EXPORT_TEXT`) the same for the UI to translate. A plain message (the CLI's own usage errors,
 * printed in English only) has no phrase.
 */
export class ExportError extends Error {
  override name = 'ExportError'
  readonly phrase: Phrase | undefined
  constructor(reason: Phrase | string) {
    super(typeof reason === 'string' ? reason : exportEnglish(reason))
    this.phrase = typeof reason === 'string' ? undefined : reason
  }
}

/** What {@link adaptTools} made of a tools.ts. */
export interface AdaptedTools {
  /** The source with the `toolstep` imports replaced and `export default` renamed. */
  code: string
  /** `{ exportName: localExpression }` for every export (the default one as `default`). */
  exports: Record<string, string>
  /** True when the source binds `z` itself (its own zod import). */
  bindsZ: boolean
  /** Type declarations the source needs from `toolstep` beyond the exported file's own. */
  types: string[]
}

/** The local name `export default …` becomes. */
export const DEFAULT_EXPORT_NAME = 'toolsDefault'

/** Types the exported file declares for everyone (see the `export:types` region). */
const DECLARED_TYPES = new Set(['JsonValue', 'ToolSpec', 'ToolCall', 'Message', 'ToolDefinition'])

/** The authoring types a tools.ts may import, written for the exported file. */
const AUTHORING_TYPES: Record<string, string> = {
  SystemMessage: "type SystemMessage = Extract<Message, { role: 'system' }>",
  UserMessage: "type UserMessage = Extract<Message, { role: 'user' }>",
  AssistantMessage: "type AssistantMessage = Extract<Message, { role: 'assistant' }>",
  ToolMessage: "type ToolMessage = Extract<Message, { role: 'tool' }>",
  ToolExecutionOptions: 'type ToolExecutionOptions = { toolCallId: string }',
  RouteContext: 'type RouteContext = { messages: Message[]; tools: ToolSpec[]; step: number; protocol: string }',
  RouteFunction: 'type RouteFunction = (ctx: { messages: Message[]; tools: ToolSpec[]; step: number; protocol: string }) => readonly string[] | Promise<readonly string[]>',
  SummarizeContext: 'type SummarizeContext = { tool: string; maxChars: number }',
  SummarizeFunction: 'type SummarizeFunction = (result: string, ctx: { tool: string; maxChars: number }) => string | Promise<string>',
}

const IMPORT = /^[ \t]*import[ \t]+(type[ \t]+)?(?:\{([^}]*)\}|\*[ \t]+as[ \t]+([\w$]+)|([\w$]+))[ \t]*from[ \t]*(['"])([^'"\n]+)\5[ \t]*;?[ \t]*$/gm
const BARE_IMPORT = /^[ \t]*import[ \t]*(['"])([^'"\n]+)\1/m
// An identifier as JavaScript spells it (ECMAScript IdentifierName), not only ASCII: `export const 天气` is a tool too.
const IDENT = String.raw`[\p{ID_Start}_$][\p{ID_Continue}$\u200C\u200D]*`
const NAMED_EXPORT = new RegExp(String.raw`^export[ \t]+(?:declare[ \t]+)?(?:async[ \t]+)?(?:const|let|var|function\*?|class)[ \t]+(${IDENT})`, 'gmu')
const LIST_EXPORT = /^export[ \t]*\{([^}]*)\}[ \t]*;?[ \t]*$/gm
const DEFAULT_EXPORT = /^export[ \t]+default[ \t]+/m

/** One `a`, `a as b`, `type a as b` of an import or export list. */
function specifiers(list: string): { type: boolean; name: string; local: string }[] {
  return list
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const type = /^type\s+/.test(part)
      const [name = '', local = name] = part.replace(/^type\s+/, '').split(/\s+as\s+/)
      return { type, name: name.trim(), local: local.trim() }
    })
}

/**
 * Adapts `source` (see the module header).
 * @throws ExportError when tools.ts imports a module other than `toolstep` and `zod`, or a value
 *   from `toolstep` other than `tool` and `z`.
 */
export function adaptTools(source: string): AdaptedTools {
  const types = new Set<string>()
  let bindsZ = false
  let code = source.replace(IMPORT, (line, wholeType: string | undefined, list: string | undefined, namespace: string | undefined, single: string | undefined, _quote: string, from: string) => {
    if (from === 'zod' || from.startsWith('zod/')) {
      const bound = list !== undefined ? specifiers(list).filter((s) => !s.type && !wholeType).map((s) => s.local) : [namespace ?? single ?? '']
      if (bound.includes('z')) bindsZ = true
      return line
    }
    if (from !== 'toolstep') throw new ExportError(exportPhrase('foreignImport', { from }))
    if (list === undefined) throw new ExportError(exportPhrase('namespaceImport', { name: namespace ?? single ?? '' }))
    const lines: string[] = []
    for (const spec of specifiers(list)) {
      if (wholeType || spec.type) {
        if (!DECLARED_TYPES.has(spec.name)) types.add(AUTHORING_TYPES[spec.name] ?? `type ${spec.name} = unknown // not available outside Toolstep`)
        if (spec.local !== spec.name) lines.push(`type ${spec.local} = ${spec.name}`)
        continue
      }
      if (spec.name !== 'tool' && spec.name !== 'z') {
        throw new ExportError(exportPhrase('otherName', { name: spec.name }))
      }
      if (spec.local !== spec.name) lines.push(`const ${spec.local} = ${spec.name}`)
    }
    return lines.join('\n')
  })
  const bare = BARE_IMPORT.exec(code)
  if (bare) throw new ExportError(exportPhrase('bareImport', { from: bare[2] ?? '' }))

  const exports: Record<string, string> = {}
  for (const match of code.matchAll(NAMED_EXPORT)) exports[match[1]!] = match[1]!
  for (const match of code.matchAll(LIST_EXPORT)) for (const spec of specifiers(match[1] ?? '')) if (!spec.type) exports[spec.local] = spec.name
  if (DEFAULT_EXPORT.test(code)) {
    code = code.replace(DEFAULT_EXPORT, `const ${DEFAULT_EXPORT_NAME} = `)
    exports.default = DEFAULT_EXPORT_NAME
  }
  return { code: code.replace(/^\n+/, ''), exports, bindsZ, types: [...types] }
}

/**
 * The names declared at the top level of `source` (unindented `const`, `let`, `var`, `function`,
 * `class`, `interface`, `type`, `enum`, exported or not, and import bindings).
 */
export function topLevelNames(source: string): Set<string> {
  const names = new Set<string>()
  for (const match of source.matchAll(new RegExp(String.raw`^(?:export[ \t]+)?(?:declare[ \t]+)?(?:async[ \t]+)?(?:const|let|var|function\*?|class|interface|type|enum)[ \t]+(${IDENT})`, 'gmu'))) names.add(match[1]!)
  for (const match of source.matchAll(IMPORT)) {
    if (match[2] !== undefined) for (const spec of specifiers(match[2])) names.add(spec.local)
    else names.add(match[3] ?? match[4] ?? '')
  }
  return names
}
