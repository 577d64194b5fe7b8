/**
 * Incremental scanner for the native OpenAI assistant message,
 * `{"role", "content", "tool_calls": [{"id", "type", "function": {"name", "arguments": "<JSON>"}}]}`.
 */
import type { JsonValue } from '../../messages'
import { isJsonObject, readCallObject } from '../shared/call-object'
import { JsonStreamReader, type StringSink } from './json-stream-reader'
import type { StreamScanner, StreamingCall } from '../types'

/**
 * Reads the message with one {@link JsonStreamReader}. Each `function.arguments` string is itself
 * JSON: its decoded pieces are fed to a second reader as they arrive, so partial arguments are
 * known without re-reading the string. Output that is not a JSON object makes it give up (the
 * stream parser then re-parses, which reads it as text).
 */
export class OpenAiScanner implements StreamScanner {
  readonly reading = 'incremental' as const
  readonly calls: StreamingCall[] = []
  private readonly reader = new JsonStreamReader()
  /** Readers of the `arguments` strings, by the `function` object that holds them. */
  private readonly argumentReaders = new Map<object, JsonStreamReader>()
  /** Entries of `tool_calls` already moved to {@link calls}. */
  private settled = 0

  constructor() {
    this.reader.onStringStart = (reader): StringSink | undefined => {
      // Only root.tool_calls[i].function.arguments: four containers deep, with those keys.
      if (reader.depth !== 4 || reader.keyAt(3) !== 'arguments' || reader.keyAt(2) !== 'function' || reader.keyAt(0) !== 'tool_calls') return undefined
      const holder = reader.containerAt(3)
      if (!holder) return undefined
      const inner = new JsonStreamReader()
      this.argumentReaders.set(holder, inner)
      return {
        piece: (text) => {
          if (inner.status === 'open') inner.write(text)
        },
        end: () => undefined,
      }
    }
  }

  /** Content that may hold calls in a text format (`<tool_call>`, `[f(x=1)]`, `{"name"…}`, `f(x=1)`). */
  private static readonly MAY_HOLD = /[<[{(]/

  get gaveUp(): boolean {
    return this.reader.status === 'failed'
  }

  write(chunk: string): void {
    const end = this.reader.write(chunk)
    // Anything but whitespace after the message means it is not a native message after all.
    if (this.reader.status === 'done' && chunk.slice(end).trim() !== '') this.reader.status = 'failed'
    // The legacy function_call, and calls left in content when tool_calls is empty, are read
    // by the one-shot parser: hand over to it.
    const root = this.reader.root
    if (this.reader.status !== 'failed' && isJsonObject(root) && (Object.hasOwn(root, 'function_call') || (this.reader.status === 'done' && this.calls.length === 0 && typeof root.content === 'string' && OpenAiScanner.MAY_HOLD.test(root.content)))) {
      this.reader.status = 'failed'
      return
    }
    this.settle()
  }

  forming(): StreamingCall | undefined {
    const entries = this.entries()
    const open = this.openIndex(entries)
    if (open < 0) return undefined
    const entry = entries?.[open]
    if (!isJsonObject(entry)) return { name: undefined, arguments: {}, complete: false }
    const fn = entry.function
    const id = typeof entry.id === 'string' && !this.reader.isReading(entry, 'id') ? entry.id : undefined
    let name: string | undefined
    let args: JsonValue | undefined
    if (isJsonObject(fn)) {
      if (typeof fn.name === 'string' && !this.reader.isReading(fn, 'name')) name = fn.name.trim()
      args = typeof fn.arguments === 'string' ? this.argumentReaders.get(fn)?.root : fn.arguments
    }
    const call: StreamingCall = { name, arguments: isJsonObject(args) ? args : {}, complete: false }
    if (id !== undefined) call.id = id
    return call
  }

  text(): string {
    const root = this.reader.root
    if (!isJsonObject(root)) return ''
    const content = root.content
    return typeof content === 'string' ? content : ''
  }

  private entries(): JsonValue[] | undefined {
    const root = this.reader.root
    if (!isJsonObject(root)) return undefined
    const entries = root.tool_calls
    return Array.isArray(entries) ? entries : undefined
  }

  /** Index of the `tool_calls` entry still being read, or -1. */
  private openIndex(entries: JsonValue[] | undefined): number {
    if (!entries || entries.length === 0) return -1
    const inside = this.reader.status === 'open' && this.reader.depth >= 3 && this.reader.keyAt(0) === 'tool_calls'
    return inside ? entries.length - 1 : -1
  }

  /** Moves entries that have closed to {@link calls}; each entry is read once. */
  private settle(): void {
    const entries = this.entries()
    if (!entries) return
    const open = this.openIndex(entries)
    const limit = open < 0 ? entries.length : open
    while (this.settled < limit) {
      const entry = entries[this.settled] ?? null
      this.settled++
      const reading = readCallObject('', entry, undefined, 'wrapped', true)
      if (reading.kind !== 'call') continue
      const call: StreamingCall = { name: reading.call.name, arguments: reading.call.arguments, complete: true }
      if (reading.call.id !== undefined) call.id = reading.call.id
      this.calls.push(call)
      if (isJsonObject(entry) && isJsonObject(entry.function)) this.argumentReaders.delete(entry.function)
    }
  }
}
