/**
 * The few host globals core may use, declared for tsconfig.core.json (lib ES2023 only, no DOM,
 * no @types/node). Each exists with this shape in browsers, Web Workers and Node >= 20, so core
 * stays runnable everywhere; anything not listed here is a type error in core. The app and Node
 * programs exclude this file and take the full declarations from their own libs.
 */

/** HTML timers (also Node's global): runs `handler` once after `timeoutMs` ms. */
declare function setTimeout(handler: () => void, timeoutMs?: number): unknown

/** HTML timers (also Node's global): cancels a `setTimeout`. */
declare function clearTimeout(handle: unknown): void

// Fetch and abort, the subset core/endpoint uses (WHATWG Fetch + DOM AbortController; Node >= 18
// has both globally). Declared narrowly so core cannot drift into browser-only parts of them.

interface AbortSignal {
  readonly aborted: boolean
  readonly reason: unknown
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void
  removeEventListener(type: 'abort', listener: () => void): void
}
declare class AbortController {
  readonly signal: AbortSignal
  abort(reason?: unknown): void
}
interface Headers {
  get(name: string): string | null
}
interface ReadableStreamReadResult<T> {
  done: boolean
  value?: T
}
interface ReadableStreamDefaultReader<T> {
  read(): Promise<ReadableStreamReadResult<T>>
  cancel(reason?: unknown): Promise<void>
}
interface ReadableStream<R> {
  getReader(): ReadableStreamDefaultReader<R>
}
interface Response {
  readonly ok: boolean
  readonly status: number
  readonly statusText: string
  readonly headers: Headers
  readonly body: ReadableStream<Uint8Array> | null
  text(): Promise<string>
}
interface RequestInit {
  method?: string
  headers?: Record<string, string>
  body?: string
  signal?: AbortSignal
}
declare function fetch(input: string, init?: RequestInit): Promise<Response>
declare class TextDecoder {
  constructor(label?: string)
  decode(input?: Uint8Array, options?: { stream?: boolean }): string
}
