/**
 * Type declarations of the `toolstep` module for the editor (Monaco's TypeScript worker), so user
 * code gets completion and type errors for `tool`, `z`, the model context and the helpers.
 *
 * `z` here is a deliberately small subset of zod 4: enough to write tool schemas and infer
 * `execute`'s argument type. The real zod runs in the sandbox, so anything missing here still
 * works at run time; it is only unknown to the editor. A unit test checks that every export of
 * `authoring.ts` is declared here, and type-checks the examples against these declarations.
 */
export const AUTHORING_TYPES = String.raw`// The zod subset, as its own module so that "null" and "enum" can be exported under their reserved names.
declare module 'toolstep/z' {
  /** A zod schema whose parsed value has type Output (and accepted input type Input). */
  export interface ZodType<Output = unknown, Input = Output> {
    readonly _output: Output
    readonly _input: Input
    optional(): ZodOptional<this>
    nullable(): ZodNullable<this>
    nullish(): ZodOptional<ZodNullable<this>>
    /** Value used when the input is undefined; the field becomes optional for the model. */
    default(value: NoUndefined<Output>): ZodDefault<this>
    /** Description shown to the model in the JSON Schema. */
    describe(description: string): this
    array(): ZodArray<this>
    or<T extends ZodType>(option: T): ZodUnion<[this, T]>
    refine(check: (value: Output) => boolean | Promise<boolean>, message?: string | { message?: string }): this
    transform<T>(fn: (value: Output) => T | Promise<T>): ZodType<T, Input>
    parse(data: unknown): Output
    safeParse(data: unknown): { success: true; data: Output } | { success: false; error: ZodError }
    parseAsync(data: unknown): Promise<Output>
  }
  export type NoUndefined<T> = T extends undefined ? never : T
  export type ZodTypeAny = ZodType<any, any>
  export type infer<T extends ZodTypeAny> = T['_output']
  export type output<T extends ZodTypeAny> = T['_output']
  export type input<T extends ZodTypeAny> = T['_input']

  export interface ZodError extends Error {
    issues: { code: string; path: (string | number)[]; message: string }[]
  }
  export interface ZodString extends ZodType<string> {
    min(length: number, message?: string): ZodString
    max(length: number, message?: string): ZodString
    length(length: number, message?: string): ZodString
    regex(pattern: RegExp, message?: string): ZodString
    email(message?: string): ZodString
    url(message?: string): ZodString
    uuid(message?: string): ZodString
    startsWith(prefix: string, message?: string): ZodString
    endsWith(suffix: string, message?: string): ZodString
    includes(part: string, message?: string): ZodString
    trim(): ZodString
    toLowerCase(): ZodString
    toUpperCase(): ZodString
    nonempty(message?: string): ZodString
  }
  export interface ZodNumber extends ZodType<number> {
    min(value: number, message?: string): ZodNumber
    max(value: number, message?: string): ZodNumber
    gt(value: number, message?: string): ZodNumber
    gte(value: number, message?: string): ZodNumber
    lt(value: number, message?: string): ZodNumber
    lte(value: number, message?: string): ZodNumber
    int(message?: string): ZodNumber
    positive(message?: string): ZodNumber
    nonnegative(message?: string): ZodNumber
    negative(message?: string): ZodNumber
    multipleOf(value: number, message?: string): ZodNumber
  }
  export interface ZodBoolean extends ZodType<boolean> {}
  export interface ZodNull extends ZodType<null> {}
  export interface ZodAny extends ZodType<any> {}
  export interface ZodUnknown extends ZodType<unknown> {}
  export interface ZodLiteral<T extends string | number | boolean | null> extends ZodType<T> {
    readonly value: T
  }
  export interface ZodEnum<T extends readonly [string, ...string[]]> extends ZodType<T[number]> {
    readonly options: T
  }
  export interface ZodOptional<T extends ZodTypeAny> extends ZodType<T['_output'] | undefined, T['_input'] | undefined> {
    unwrap(): T
  }
  export interface ZodNullable<T extends ZodTypeAny> extends ZodType<T['_output'] | null, T['_input'] | null> {
    unwrap(): T
  }
  export interface ZodDefault<T extends ZodTypeAny> extends ZodType<NoUndefined<T['_output']>, T['_input'] | undefined> {
    unwrap(): T
  }
  export interface ZodArray<T extends ZodTypeAny> extends ZodType<T['_output'][], T['_input'][]> {
    readonly element: T
    min(length: number, message?: string): ZodArray<T>
    max(length: number, message?: string): ZodArray<T>
    length(length: number, message?: string): ZodArray<T>
    nonempty(message?: string): ZodArray<T>
  }
  export type Shape = { [key: string]: ZodTypeAny }
  export type OptionalKeys<S extends Shape, K extends '_output' | '_input'> = {
    [P in keyof S]: undefined extends S[P][K] ? P : never
  }[keyof S]
  export type Flatten<T> = { [P in keyof T]: T[P] } & {}
  export type ObjectOf<S extends Shape, K extends '_output' | '_input'> = Flatten<
    { [P in Exclude<keyof S, OptionalKeys<S, K>>]: S[P][K] } & { [P in OptionalKeys<S, K>]?: S[P][K] }
  >
  export interface ZodObject<S extends Shape> extends ZodType<ObjectOf<S, '_output'>, ObjectOf<S, '_input'>> {
    readonly shape: S
    extend<E extends Shape>(shape: E): ZodObject<Omit<S, keyof E> & E>
    pick<K extends keyof S>(keys: { [P in K]?: true }): ZodObject<Pick<S, K>>
    omit<K extends keyof S>(keys: { [P in K]?: true }): ZodObject<Omit<S, K>>
    partial(): ZodObject<{ [P in keyof S]: ZodOptional<S[P]> }>
    strict(): ZodObject<S>
    passthrough(): ZodObject<S>
  }
  export interface ZodUnion<T extends readonly ZodTypeAny[]> extends ZodType<T[number]['_output'], T[number]['_input']> {
    readonly options: T
  }
  export interface ZodRecord<K extends ZodType<string>, V extends ZodTypeAny>
    extends ZodType<Record<K['_output'], V['_output']>, Record<K['_input'], V['_input']>> {}
  export interface ZodTuple<T extends readonly ZodTypeAny[]>
    extends ZodType<{ [I in keyof T]: T[I] extends ZodTypeAny ? T[I]['_output'] : never }> {}

  export function string(message?: string): ZodString
  export function number(message?: string): ZodNumber
  export function int(message?: string): ZodNumber
  export function boolean(message?: string): ZodBoolean
  function null_(): ZodNull
  export { null_ as null }
  export function any(): ZodAny
  export function unknown(): ZodUnknown
  export function literal<const T extends string | number | boolean | null>(value: T): ZodLiteral<T>
  function enum_<const T extends readonly [string, ...string[]]>(values: T): ZodEnum<T>
  export { enum_ as enum }
  export function object<S extends Shape>(shape: S): ZodObject<S>
  export function strictObject<S extends Shape>(shape: S): ZodObject<S>
  export function array<T extends ZodTypeAny>(element: T): ZodArray<T>
  export function tuple<const T extends readonly [ZodTypeAny, ...ZodTypeAny[]]>(items: T): ZodTuple<T>
  export function union<const T extends readonly [ZodTypeAny, ...ZodTypeAny[]]>(options: T): ZodUnion<T>
  export function discriminatedUnion<const T extends readonly [ZodTypeAny, ...ZodTypeAny[]]>(key: string, options: T): ZodUnion<T>
  export function record<K extends ZodType<string>, V extends ZodTypeAny>(key: K, value: V): ZodRecord<K, V>
  export function optional<T extends ZodTypeAny>(schema: T): ZodOptional<T>
  export function nullable<T extends ZodTypeAny>(schema: T): ZodNullable<T>
  export function email(message?: string): ZodString
  export function url(message?: string): ZodString
  export function uuid(message?: string): ZodString
  /** Converts a schema to JSON Schema (draft 2020-12). */
  export function toJSONSchema(schema: ZodTypeAny, options?: { io?: 'input' | 'output' }): { [key: string]: unknown }
}

declare module 'toolstep' {
  import * as z from 'toolstep/z'
  export { z }

  /** A JSON value. */
  export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

  /** One tool call made by the assistant. */
  export interface ToolCall {
    /** The id that pairs this call with its tool message. */
    id: string
    /** Tool name as the model wrote it. */
    name: string
    /** Parsed arguments ({} when they could not be parsed). */
    arguments: Record<string, JsonValue>
    /** Arguments exactly as they appeared on the wire. */
    rawArguments?: string
  }
  export interface SystemMessage { role: 'system'; content: string }
  export interface UserMessage { role: 'user'; content: string }
  export interface AssistantMessage {
    role: 'assistant'
    /** Text; null when the turn only calls tools. */
    content: string | null
    tool_calls?: ToolCall[]
  }
  export interface ToolMessage {
    role: 'tool'
    /** The id of the call this message answers. */
    tool_call_id: string
    /** Name of the tool that produced the result. */
    name: string
    /** Result (or error) as text, exactly as written back to the model. */
    content: string
    /** True when content reports an error. */
    isError?: boolean
  }
  export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage

  /** A tool as offered to the model. */
  export interface ToolSpec {
    /** Full name, e.g. 'get_weather' or 'weather.current'. */
    name: string
    description: string
    /** JSON Schema of the arguments object. */
    inputSchema: { [key: string]: unknown }
    /** The loop asks the user before each call. */
    dangerous?: boolean
    /** Per-call timeout in ms. */
    timeoutMs?: number
    /** Other names the model may call this tool by. */
    aliases?: string[]
    /** Argument renames applied before validation: { city_name: 'city' }. */
    argumentAliases?: { [alias: string]: string }
  }

  /** An assistant message in OpenAI Chat Completions shape; arguments is a JSON string. */
  export interface NativeAssistantMessage {
    role?: 'assistant'
    content: string | null
    tool_calls?: { id?: string; type?: 'function'; function: { name: string; arguments: string } }[]
  }

  /** Second argument of execute. */
  export interface ToolExecutionOptions {
    /** The tool_call_id of the call being executed. */
    toolCallId: string
  }

  /** A tool definition (Vercel AI SDK shape plus Toolstep's flags). */
  export interface ToolDefinition<Schema extends z.ZodTypeAny = z.ZodTypeAny, Result = unknown> {
    /** Full tool name ('weather.current'), when it should differ from the export's key (and namespace). */
    name?: string
    /** One-line description shown to the model. */
    description: string
    /** Zod schema of the arguments object. */
    inputSchema: Schema
    /** Runs the tool; the return value is written back (strings as-is, anything else as JSON). Throw to report an error. */
    execute: (args: z.output<Schema>, options: ToolExecutionOptions) => Result | Promise<Result>
    /** Ask the user to approve, deny or edit each call before it runs (confirm phase). */
    dangerous?: boolean
    /** Hard per-call timeout in ms (default 5000). On timeout the sandbox is stopped and restarted. */
    timeoutMs?: number
    /** Other names the model may use for this tool (e.g. a legacy name). */
    aliases?: string[]
    /** Other names for arguments, mapped to the real one: { city_name: 'city' }. */
    argumentAliases?: { [alias: string]: string }
  }

  /** Defines a tool; execute's argument type is inferred from inputSchema. */
  export function tool<Schema extends z.ZodTypeAny, Result>(definition: ToolDefinition<Schema, Result>): ToolDefinition<Schema, Result>

  /** What model.ts's default export receives at each step. */
  export interface ModelContext {
    /** The conversation so far, system prompt first. */
    messages: Message[]
    /** The tools offered at this step. */
    tools: ToolSpec[]
    /** 0-based index of this decide phase. */
    step: number
    /** Wire format id: 'openai', 'json', 'xml-tag', … */
    protocol: string
  }
  /** Raw text (parsed by the protocol) or a native assistant message. */
  export type ModelResult = string | NativeAssistantMessage
  /** The shape of model.ts's default export. */
  export type ModelFunction = (ctx: ModelContext) => ModelResult | Promise<ModelResult>

  /** What the route hook receives: export function route({ messages, tools, step }: RouteContext): string[] */
  export interface RouteContext {
    /** The conversation so far, system prompt first. */
    messages: Message[]
    /** Every tool tools.ts declares. */
    tools: ToolSpec[]
    /** 0-based index of this decide phase. */
    step: number
    /** Wire format id. */
    protocol: string
  }
  /** The route hook: names of the tools to offer at this step (aliases and namespace names accepted). */
  export type RouteFunction = (ctx: RouteContext) => readonly string[] | Promise<readonly string[]>
  /** What the summarize hook receives besides the result. */
  export interface SummarizeContext {
    /** Name of the tool that produced the result. */
    tool: string
    /** The result budget, in characters. */
    maxChars: number
  }
  /** The summarize hook: export function summarize(result: string, ctx: SummarizeContext): string */
  export type SummarizeFunction = (result: string, ctx: SummarizeContext) => string | Promise<string>

  /** One call for callTools. */
  export interface CallRequest {
    name: string
    /** Arguments object, or a string written to the wire verbatim. */
    arguments: { [key: string]: JsonValue } | string
    id?: string
  }

  /** Content of the latest user message, or ''. */
  export function lastUserMessage(messages: readonly Message[]): string
  /** The tool messages that end the conversation (results not yet answered). */
  export function toolResults(messages: readonly Message[]): ToolMessage[]
  /** The newest unanswered tool result, or undefined. */
  export function lastToolResult(messages: readonly Message[]): ToolMessage | undefined
  /** A fresh tool_call_id: call_<step>_<n>. */
  export function nextCallId(): string
  /** Writes tool calls in the format the protocol speaks (native message for 'openai', text otherwise). */
  export function callTools(protocol: string, calls: readonly CallRequest[], text?: string): ModelResult
  /** A final answer in the shape the protocol expects. */
  export function answer(protocol: string, text: string): ModelResult
}
`
