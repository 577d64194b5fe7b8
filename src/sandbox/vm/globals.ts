/**
 * The web globals user code in the QuickJS VM finds, built on the worker's functions: `console`,
 * timers, `queueMicrotask`, `performance.now`, `crypto.randomUUID` / `getRandomValues`, and
 * `fetch` with small `Headers` / `Response` classes. QuickJS itself has none of them.
 *
 * Timers and fetches are kept here by id; the worker only schedules them and calls
 * {@link deliver} when one is due, so no function of one engine is ever held by the other.
 * A response body is read as text by the worker and copied into the VM, where it counts against
 * the VM's memory limit like anything else user code holds.
 */
import { host } from './host'

type Callback = (...args: unknown[]) => unknown

interface Timer {
  callback: Callback
  args: unknown[]
  /** Set for `setInterval`: the period, ms. */
  repeat?: number
}

const timers = new Map<number, Timer>()
const fetches = new Map<number, { resolve: (response: unknown) => void; reject: (error: unknown) => void }>()
let nextId = 1

function text(value: unknown): string {
  if (typeof value === 'string') return value
  if (value instanceof Error) return `${value.name}: ${value.message}`
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    try {
      return String(value)
    } catch {
      return '(a value that cannot be turned into text)'
    }
  }
}

function startTimer(callback: unknown, delay: unknown, args: unknown[], repeat: boolean): number {
  if (typeof callback !== 'function') throw new TypeError('The callback of a timer must be a function.')
  const ms = Math.max(0, Number(delay) || 0)
  const id = nextId++
  const refused = host.setTimer(id, ms)
  if (refused !== '') throw timerRefused(refused)
  timers.set(id, { callback: callback as Callback, args, ...(repeat ? { repeat: ms } : {}) })
  return id
}

/** Why a timer could not start: its call has ended, or too many wait already. */
function timerRefused(reason: string): Error {
  return reason === 'limit'
    ? new RangeError('Too many timers: at most 10000 may wait at once in the sandbox.')
    : new Error('A timer or fetch was started after the tool call, model call or load that started it had ended; they live only as long as that call.')
}

function stopTimer(id: unknown): void {
  if (typeof id !== 'number' || !timers.delete(id)) return
  host.clearTimer(id)
}

/** `Headers`, as far as tools use it: case-insensitive get/set/has/delete and iteration. */
class Headers {
  #entries = new Map<string, string>()
  constructor(init?: unknown) {
    if (init instanceof Headers) for (const [key, value] of init) this.set(key, value)
    else if (Array.isArray(init)) for (const pair of init as [string, string][]) this.append(pair[0], pair[1])
    else if (typeof init === 'object' && init !== null) for (const [key, value] of Object.entries(init)) this.set(key, String(value))
  }
  get(name: string): string | null {
    return this.#entries.get(String(name).toLowerCase()) ?? null
  }
  set(name: string, value: string): void {
    this.#entries.set(String(name).toLowerCase(), String(value))
  }
  append(name: string, value: string): void {
    const key = String(name).toLowerCase()
    const old = this.#entries.get(key)
    this.#entries.set(key, old === undefined ? String(value) : `${old}, ${value}`)
  }
  has(name: string): boolean {
    return this.#entries.has(String(name).toLowerCase())
  }
  delete(name: string): void {
    this.#entries.delete(String(name).toLowerCase())
  }
  forEach(callback: (value: string, key: string) => void): void {
    for (const [key, value] of this.#entries) callback(value, key)
  }
  entries(): IterableIterator<[string, string]> {
    return this.#entries.entries()
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#entries.entries()
  }
}

/** A fetched response whose body the worker has already read as text. */
class Response {
  readonly status: number
  readonly statusText: string
  readonly ok: boolean
  readonly url: string
  readonly headers: Headers
  #body: string
  bodyUsed = false
  constructor(body: string, init: { status?: number; statusText?: string; url?: string; headers?: unknown } = {}) {
    this.#body = body
    this.status = init.status ?? 200
    this.statusText = init.statusText ?? ''
    this.ok = this.status >= 200 && this.status < 300
    this.url = init.url ?? ''
    this.headers = new Headers(init.headers)
  }
  #read(): string {
    if (this.bodyUsed) throw new TypeError('The body of this response was already read.')
    this.bodyUsed = true
    return this.#body
  }
  async text(): Promise<string> {
    return this.#read()
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.#read())
  }
  clone(): Response {
    return new Response(this.#body, { status: this.status, statusText: this.statusText, url: this.url, headers: [...this.headers] })
  }
}

function fetchInVm(input: unknown, init: { method?: string; headers?: unknown; body?: unknown } = {}): Promise<Response> {
  const url = typeof input === 'string' ? input : typeof input === 'object' && input !== null && 'url' in input ? String((input as { url: unknown }).url) : String(input)
  const body = init.body
  if (body !== undefined && body !== null && typeof body !== 'string') {
    return Promise.reject(new TypeError('fetch in the sandbox sends string bodies only (use JSON.stringify).'))
  }
  const id = nextId++
  const request = { url, method: init.method ?? 'GET', headers: [...new Headers(init.headers)], ...(typeof body === 'string' ? { body } : {}) }
  return new Promise<Response>((resolve, reject) => {
    const refused = host.fetch(id, JSON.stringify(request))
    if (refused !== '') reject(timerRefused(refused))
    else fetches.set(id, { resolve: resolve as (response: unknown) => void, reject })
  })
}

/**
 * Called by the worker when a timer is due (`kind` `timer`), a fetch has ended (`fetch`, with
 * JSON `{ ok: true, status, statusText, url, headers, body }` or `{ ok: false, message }`), or
 * the work in flight has all ended (`drop`: pending timers and fetches are forgotten).
 * Exceptions from a timer callback are logged, as a browser does.
 */
export function deliver(kind: string, id: number, json: string): void {
  if (kind === 'drop') {
    // The work in flight has all ended: what it scheduled never runs.
    timers.clear()
    fetches.clear()
    return
  }
  if (kind === 'timer') {
    const timer = timers.get(id)
    if (!timer) return
    if (timer.repeat === undefined || host.setTimer(id, timer.repeat) !== '') timers.delete(id)
    try {
      timer.callback(...timer.args)
    } catch (error) {
      host.log('error', `Uncaught ${text(error)}`)
    }
    return
  }
  const pending = fetches.get(id)
  if (!pending) return
  fetches.delete(id)
  const reply = JSON.parse(json) as
    | { ok: true; status: number; statusText: string; url: string; headers: [string, string][]; body: string }
    | { ok: false; message: string }
  if (reply.ok) pending.resolve(new Response(reply.body, reply))
  else pending.reject(new TypeError(reply.message))
}

function hexBytes(count: number): number[] {
  const hex = host.randomHex(count)
  const bytes: number[] = []
  for (let index = 0; index < count; index++) bytes.push(parseInt(hex.slice(index * 2, index * 2 + 2), 16))
  return bytes
}

/** Runs one `Intl` call in the worker; throws its error (RangeError for a bad time zone, …) here. */
function intl(kind: string, locales: unknown, options: unknown, method: string, args: unknown[]): unknown {
  const encoded = args.map((arg) => (arg instanceof Date ? { date: arg.getTime() } : arg))
  const reply = JSON.parse(host.intl(kind, JSON.stringify(locales ?? null), JSON.stringify(options ?? {}), method, JSON.stringify(encoded))) as
    | { ok: true; value: unknown }
    | { ok: false; name: string; message: string }
  if (reply.ok) return reply.value
  const Maker = reply.name === 'RangeError' ? RangeError : TypeError
  throw new Maker(reply.message)
}

/**
 * `Intl` formatters backed by the worker's `Intl` (QuickJS has none). Each instance checks its
 * locales and options when made, as the real constructors do, and each method is one call.
 */
function makeIntl(): Record<string, unknown> {
  const kinds = ['DateTimeFormat', 'NumberFormat', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Collator'] as const
  const methods = ['format', 'formatToParts', 'resolvedOptions', 'select', 'compare', 'formatRange']
  const namespace: Record<string, unknown> = {}
  for (const kind of kinds) {
    const Formatter = function (this: { locales: unknown; options: unknown }, locales?: unknown, options?: unknown) {
      const self = this instanceof Formatter ? this : (Object.create(Formatter.prototype) as { locales: unknown; options: unknown })
      intl(kind, locales, options, '', [])
      self.locales = locales ?? null
      self.options = options ?? {}
      return self
    } as unknown as { new (locales?: unknown, options?: unknown): { locales: unknown; options: unknown }; prototype: object }
    for (const method of methods) {
      Object.defineProperty(Formatter.prototype, method, {
        value(this: { locales: unknown; options: unknown }, ...args: unknown[]) {
          // `format(undefined)` of DateTimeFormat means now, in the VM's clock.
          if (kind === 'DateTimeFormat' && method === 'format' && args[0] === undefined) args = [new Date()]
          return intl(kind, this.locales, this.options, method, args)
        },
        writable: true,
        configurable: true,
      })
    }
    Object.defineProperty(Formatter, 'name', { value: kind })
    namespace[kind] = Formatter
  }
  return namespace
}

/** The error QuickJS itself throws when its memory is full (`InternalError: out of memory`). */
function outOfMemory(): Error {
  const InternalError = (globalThis as unknown as Record<string, unknown>)['InternalError'] as (new (message: string) => Error) | undefined
  return InternalError ? new InternalError('out of memory') : new RangeError('out of memory')
}

/**
 * Puts a check before every ArrayBuffer and typed-array allocation: past the memory limit it
 * throws `InternalError: out of memory` (and the VM is reported out of memory) instead of letting
 * QuickJS grow the wasm memory to its 2 GB maximum, zero-filling as it goes, which takes longer
 * than a tool's timeout. The constructors stay themselves for `instanceof` and their prototypes.
 */
function guardAllocations(): void {
  const scope = globalThis as unknown as Record<string, unknown>
  /** Bytes the constructor call will allocate, as far as its arguments tell. */
  const bytesOf = (args: unknown[], perElement: number): number => {
    const first = args[0]
    if (typeof first === 'number') return first * perElement
    if (first instanceof ArrayBuffer) return 0
    if (typeof first === 'object' && first !== null && typeof (first as { length?: unknown }).length === 'number') return (first as { length: number }).length * perElement
    return 0
  }
  const guard = (name: string, perElement: number) => {
    const target = scope[name]
    if (typeof target !== 'function') return
    const guarded: object = new Proxy(target, {
      construct(constructor, args: unknown[], newTarget): object {
        if (host.memoryFull(bytesOf(args, perElement))) throw outOfMemory()
        return Reflect.construct(constructor, args, newTarget === guarded ? constructor : newTarget) as object
      },
    })
    const hidden = { value: guarded, writable: true, configurable: true, enumerable: false }
    Object.defineProperty(globalThis, name, hidden)
    // `value.constructor` is the guarded one too, so `new array.constructor(n)` is checked as well.
    Object.defineProperty((target as { prototype: object }).prototype, 'constructor', hidden)
  }
  guard('ArrayBuffer', 1)
  const typed: [string, number][] = [
    ['Int8Array', 1], ['Uint8Array', 1], ['Uint8ClampedArray', 1], ['Int16Array', 2], ['Uint16Array', 2], ['Int32Array', 4], ['Uint32Array', 4],
    ['Float32Array', 4], ['Float64Array', 8], ['BigInt64Array', 8], ['BigUint64Array', 8],
  ]
  for (const [name, perElement] of typed) guard(name, perElement)
}

/**
 * Makes `eval` and the `Function` constructors (plain, async, generator, async generator) refuse
 * source nested too deeply for QuickJS's parser with a `SyntaxError` the code can catch (see
 * `nesting.ts`): parsed, it overflowed the browser's native stack and killed the VM. The
 * constructors stay themselves for `instanceof` and `.prototype`; `fn.constructor` is the guarded
 * one too. `eval` becomes the guarded function, so a call `eval(src)` is an indirect eval: the
 * source runs in the global scope, not in the caller's (QuickJS makes a direct eval only of its
 * own `eval`, which can then no longer be reached).
 */
function guardParsers(): void {
  const check = (source: string) => {
    const problem = host.nesting(source)
    if (problem !== '') throw new SyntaxError(problem)
  }
  const nativeEval = globalThis.eval
  const guardedEval = {
    eval(source: unknown): unknown {
      if (typeof source !== 'string') return source
      check(source)
      return nativeEval(source)
    },
  }.eval
  Object.defineProperty(globalThis, 'eval', { value: guardedEval, writable: true, configurable: true, enumerable: false })
  const makers: [(new (...args: string[]) => unknown), string][] = [
    [Function, 'function'],
    [Object.getPrototypeOf(async function () {}).constructor as new (...args: string[]) => unknown, 'async function'],
    [Object.getPrototypeOf(function* () {}).constructor as new (...args: string[]) => unknown, 'function*'],
    [Object.getPrototypeOf(async function* () {}).constructor as new (...args: string[]) => unknown, 'async function*'],
  ]
  for (const [Maker, keyword] of makers) {
    /** The arguments as the constructor reads them (each turned into text once), after the check. */
    const checked = (args: unknown[]): string[] => {
      const texts = args.map((arg) => `${arg as string}`)
      const body = texts.length > 0 ? (texts[texts.length - 1] as string) : ''
      check(`(${keyword} anonymous(${texts.slice(0, -1).join(',')}\n) {\n${body}\n})`)
      return texts
    }
    const guarded: object = new Proxy(Maker, {
      apply: (target, _self, args: unknown[]) => Reflect.construct(target, checked(args)),
      construct: (target, args: unknown[], newTarget) => Reflect.construct(target, checked(args), newTarget === guarded ? target : newTarget) as object,
    })
    Object.defineProperty(Maker.prototype, 'constructor', { value: guarded, writable: true, configurable: true, enumerable: false })
    if (Maker === Function) Object.defineProperty(globalThis, 'Function', { value: guarded, writable: true, configurable: true, enumerable: false })
  }
}

/** Elements one native step of {@link guardLongBuiltins} handles before user code may be interrupted again. */
const CHUNK = 1 << 16

/** Nesting `JSON.stringify` writes at most in the VM (see {@link guardLongBuiltins}); V8 manages about ten times more. */
export const MAX_JSON_DEPTH = 1000

/** `ToLength` of the spec: a length as an integer in [0, 2^53 - 1]. */
function toLength(value: unknown): number {
  const n = Math.floor(Number(value))
  return n > 0 ? Math.min(n, Number.MAX_SAFE_INTEGER) : 0
}

/**
 * Makes the builtins that can run for long inside one native call stop at the memory limit and
 * at the deadline. QuickJS polls its interrupt handler only while bytecode runs (and in its regex
 * engine), never inside a builtin's own loop, so `new Array(3e8).join()` (reads 3e8 holes, one
 * byte each) or `JSON.stringify` of a structure that shares its branches ran for tens of seconds
 * without a pause, until the worker was killed from outside.
 * - `join` / `toLocaleString` of arrays: checks up front that the separators alone fit in the
 *   memory left (else `out of memory` at once), and walks long arrays in chunks, with bytecode in
 *   between. Each chunk has no prototype, so a hole reads `undefined` as in the array itself.
 * - `join` of typed arrays: the same check (each element writes at least one character).
 * - `JSON.stringify` always gets a replacer (the user's, or one that changes nothing): one call
 *   per value, which is where QuickJS polls the handler. It also refuses values nested deeper
 *   than {@link MAX_JSON_DEPTH}: QuickJS measures its stack by the part in wasm memory, where the
 *   builtin's recursion takes little room, so some thousand levels overflowed the worker's own
 *   stack under the wasm code and killed the VM with every call in it. The text is the same.
 */
function guardLongBuiltins(outOfMemory: () => Error): void {
  // Strict, so that in the functions below a `this` of null or undefined stays itself (and throws,
  // as the builtin does): the bundle is a sloppy script.
  'use strict'
  const nativeJoin = Array.prototype.join
  const nativeLocale = Array.prototype.toLocaleString
  const nativeSlice = Array.prototype.slice
  const wideText = /[^\x00-\xff]/
  /** Throws `out of memory` when `chars` characters of `sample`'s width do not fit. */
  const reserve = (chars: number, sample: string) => {
    if (chars > 0 && host.memoryFull(chars * (wideText.test(sample) ? 2 : 1))) throw outOfMemory()
  }
  /** The elements [start, end) of `o` in a prototype-less array, read as the builtin reads them. */
  const chunkOf = (o: Record<number, unknown>, array: boolean, start: number, end: number): unknown[] => {
    const chunk = array ? (nativeSlice.call(o, start, end) as unknown[]) : new Array<unknown>(end - start)
    if (!array) for (let index = start; index < end; index++) chunk[index - start] = o[index]
    Object.setPrototypeOf(chunk, null)
    return chunk
  }
  /** Runs `native` (a join of one array with `sep`) over `o` chunk by chunk, and joins the pieces. */
  const chunked = (o: Record<number, unknown>, array: boolean, length: number, sep: string, native: (chunk: unknown[]) => string): string => {
    const pieces: string[] = []
    for (let start = 0; start < length; start += CHUNK) pieces.push(native(chunkOf(o, array, start, Math.min(length, start + CHUNK))))
    return nativeJoin.call(pieces, sep)
  }
  const define = (target: object, name: string, value: (...args: never[]) => unknown) => {
    Object.defineProperty(value, 'name', { value: name })
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false })
  }
  define(Array.prototype, 'join', function join(this: unknown, separator?: unknown): string {
    if (this === null || this === undefined) return nativeJoin.call(this, separator as string)
    const o = Object(this) as Record<number, unknown> & { length: unknown }
    const array = Array.isArray(o)
    const length = toLength(o.length)
    if (array && length <= CHUNK) return nativeJoin.call(o, separator as string)
    const sep = separator === undefined ? ',' : `${separator as string}`
    reserve((length - 1) * sep.length, sep)
    return chunked(o, array, length, sep, (chunk) => nativeJoin.call(chunk, sep))
  })
  define(Array.prototype, 'toLocaleString', function toLocaleString(this: unknown, ...args: unknown[]): string {
    if (this === null || this === undefined) return Reflect.apply(nativeLocale, this, args) as string
    const o = Object(this) as Record<number, unknown> & { length: unknown }
    const array = Array.isArray(o)
    const length = toLength(o.length)
    if (array && length <= CHUNK) return Reflect.apply(nativeLocale, o, args) as string
    reserve(length - 1, ',')
    return chunked(o, array, length, ',', (chunk) => Reflect.apply(nativeLocale, chunk, args) as string)
  })
  const typedPrototype = Object.getPrototypeOf(Int8Array.prototype) as { join: (separator?: string) => string }
  const typedJoin = typedPrototype.join
  const typedLength = Object.getOwnPropertyDescriptor(typedPrototype, 'length')?.get
  define(typedPrototype, 'join', function join(this: unknown, separator?: unknown): string {
    // The native `length` getter checks that `this` is a typed array; it throws as the native `join` would.
    const length = typedLength ? (Reflect.apply(typedLength, this, []) as number) : 0
    const sep = separator === undefined ? ',' : `${separator as string}`
    reserve(length + (length - 1) * sep.length, sep)
    return Reflect.apply(typedJoin, this, [sep]) as string
  })
  const nativeStringify = JSON.stringify
  define(JSON, 'stringify', function stringify(value: unknown, replacer?: unknown, space?: unknown): string {
    if (Array.isArray(replacer)) return nativeStringify(value, replacer as string[], space as number)
    const user = typeof replacer === 'function' ? (replacer as (this: unknown, key: string, value: unknown) => unknown) : undefined
    /** How deep each object being written sits (set just before the builtin descends into it). */
    const depths = new Map<object, number>()
    const replace = function (this: unknown, key: string, found: unknown): unknown {
      const written = user ? Reflect.apply(user, this, [key, found]) : found
      if (typeof written === 'object' && written !== null) {
        const depth = (depths.get(this as object) ?? 0) + 1
        if (depth > MAX_JSON_DEPTH) throw new RangeError(`JSON.stringify: the value is nested deeper than ${MAX_JSON_DEPTH} levels.`)
        depths.set(written, depth)
      }
      return written
    }
    return nativeStringify(value, replace, space as number)
  })
}

/** `ToIntegerOrInfinity` of the spec. */
function toInteger(value: unknown): number {
  const n = Number(value)
  return n !== n ? 0 : Math.trunc(n)
}

/** A relative index (`start`, `end`, `fromIndex`) clamped to [0, length], as the array builtins read it. */
function relativeIndex(value: unknown, length: number, otherwise: number): number {
  if (value === undefined) return otherwise
  const n = toInteger(value)
  return n < 0 ? Math.max(length + n, 0) : Math.min(n, length)
}

/**
 * Makes the array builtins that walk every index in one native loop stop at the deadline.
 * QuickJS polls its interrupt handler only while bytecode runs, so on an array whose length is
 * far larger than what it holds (`a.length = 3e8`, or `a[3e8] = 1`) `indexOf`, `reverse`, `sort`,
 * `forEach`, `slice`, `shift`, `concat`, `flat`… read 3e8 holes (some 60 s) without a pause, and
 * the call was reported late, as the sandbox's hard kill. The VM cannot refuse such a length
 * (setting `length` cannot be intercepted), so past {@link CHUNK} elements these builtins run as
 * the spec writes them, in bytecode, where the interrupt stops them at the call's timeout like
 * any loop; up to it (every array that is not sparse, as a dense one of that size fills some
 * memory) the native builtin runs as before. `flat` and `flatMap` always run in bytecode: a short
 * array may hold a long one. Species constructors are not consulted past {@link CHUNK}.
 */
function guardSparseLoops(): void {
  'use strict'
  type Indexed = Record<number, unknown> & { length: unknown }
  type Callback = (value: unknown, index: number, array: unknown) => unknown
  const proto = Array.prototype as unknown as Record<string, (...args: unknown[]) => unknown>
  const isArray = Array.isArray
  const spreadable = Symbol.isConcatSpreadable
  const define = (name: string, long: (o: Indexed, length: number, args: unknown[]) => unknown, always = false, from = CHUNK) => {
    const native = proto[name] as (...args: unknown[]) => unknown
    const guarded = {
      [name](this: unknown, ...args: unknown[]): unknown {
        if (this === null || this === undefined) return Reflect.apply(native, this, args)
        const o = Object(this) as Indexed
        const length = toLength(o.length)
        return always || length > from ? long(o, length, args) : Reflect.apply(native, o, args)
      },
    }[name] as (...args: unknown[]) => unknown
    Object.defineProperty(guarded, 'length', { value: native.length })
    Object.defineProperty(proto, name, { value: guarded, writable: true, configurable: true, enumerable: false })
  }
  const nativeSlice = proto.slice as (...args: unknown[]) => unknown
  const nativeConcat = proto.concat as (...args: unknown[]) => unknown
  const callable = (fn: unknown, name: string): Callback => {
    if (typeof fn !== 'function') throw new TypeError(`Array.prototype.${name}: ${String(fn)} is not a function`)
    return fn as Callback
  }

  define('indexOf', (o, length, [search, from]) => {
    for (let k = relativeIndex(from, length, 0); k < length; k++) if (k in o && o[k] === search) return k
    return -1
  })
  define('lastIndexOf', (o, length, args) => {
    const n = args.length > 1 ? toInteger(args[1]) : length - 1
    for (let k = n >= 0 ? Math.min(n, length - 1) : length + n; k >= 0; k--) if (k in o && o[k] === args[0]) return k
    return -1
  })
  define('includes', (o, length, [search, from]) => {
    for (let k = relativeIndex(from, length, 0); k < length; k++) {
      const value = o[k]
      if (value === search || (value !== value && search !== search)) return true
    }
    return false
  })
  define('forEach', (o, length, [fn, self]) => {
    const callback = callable(fn, 'forEach')
    for (let k = 0; k < length; k++) if (k in o) Reflect.apply(callback, self, [o[k], k, o])
    return undefined
  })
  define('every', (o, length, [fn, self]) => {
    const callback = callable(fn, 'every')
    for (let k = 0; k < length; k++) if (k in o && !Reflect.apply(callback, self, [o[k], k, o])) return false
    return true
  })
  define('some', (o, length, [fn, self]) => {
    const callback = callable(fn, 'some')
    for (let k = 0; k < length; k++) if (k in o && Reflect.apply(callback, self, [o[k], k, o])) return true
    return false
  })
  define('map', (o, length, [fn, self]) => {
    const callback = callable(fn, 'map')
    const mapped = new Array<unknown>(length)
    for (let k = 0; k < length; k++) if (k in o) mapped[k] = Reflect.apply(callback, self, [o[k], k, o])
    return mapped
  })
  define('filter', (o, length, [fn, self]) => {
    const callback = callable(fn, 'filter')
    const kept: unknown[] = []
    for (let k = 0; k < length; k++) {
      if (!(k in o)) continue
      const value = o[k]
      if (Reflect.apply(callback, self, [value, k, o])) kept[kept.length] = value
    }
    return kept
  })
  const reduce = (name: string, forward: boolean) =>
    define(name, (o, length, args) => {
      const callback = callable(args[0], name)
      let k = forward ? 0 : length - 1
      const step = forward ? 1 : -1
      const inRange = () => (forward ? k < length : k >= 0)
      let accumulator: unknown
      if (args.length > 1) accumulator = args[1]
      else {
        while (inRange() && !(k in o)) k += step
        if (!inRange()) throw new TypeError(`Array.prototype.${name} of an empty array with no initial value`)
        accumulator = o[k]
        k += step
      }
      for (; inRange(); k += step) if (k in o) accumulator = Reflect.apply(callback, undefined, [accumulator, o[k], k, o])
      return accumulator
    })
  reduce('reduce', true)
  reduce('reduceRight', false)
  define('reverse', (o, length) => {
    for (let lower = 0, upper = length - 1; lower < upper; lower++, upper--) {
      const hasLower = lower in o
      const hasUpper = upper in o
      const lowerValue = hasLower ? o[lower] : undefined
      const upperValue = hasUpper ? o[upper] : undefined
      if (hasUpper) o[lower] = upperValue
      else if (hasLower) delete o[lower]
      if (hasLower) o[upper] = lowerValue
      else if (hasUpper) delete o[upper]
    }
    return o
  })
  // fill writes every index, so natively it fills memory as fast as it loops and a huge one ends
  // out of memory soon; only past 4M elements is it run in bytecode. `new Array(1e5).fill(x)`
  // (the usual way to make an array) stays native: in bytecode it was several times slower.
  define(
    'fill',
    (o, length, [value, start, end]) => {
      for (let k = relativeIndex(start, length, 0), last = relativeIndex(end, length, length); k < last; k++) o[k] = value
      return o
    },
    false,
    1 << 22,
  )
  define('copyWithin', (o, length, [target, start, end]) => {
    let to = relativeIndex(target, length, 0)
    let from = relativeIndex(start, length, 0)
    let count = Math.min(relativeIndex(end, length, length) - from, length - to)
    let step = 1
    if (from < to && to < from + count) {
      step = -1
      from += count - 1
      to += count - 1
    }
    for (; count > 0; count--, from += step, to += step) {
      if (from in o) o[to] = o[from]
      else delete o[to]
    }
    return o
  })
  /** Moves the elements [from, length) of `o` by `by` places (holes stay holes), as `shift`, `unshift` and `splice` do. */
  const move = (o: Indexed, from: number, length: number, by: number) => {
    if (by < 0) {
      for (let k = from; k < length; k++) {
        if (k in o) o[k + by] = o[k]
        else delete o[k + by]
      }
      for (let k = length; k > length + by; k--) delete o[k - 1]
    } else if (by > 0) {
      for (let k = length - 1; k >= from; k--) {
        if (k in o) o[k + by] = o[k]
        else delete o[k + by]
      }
    }
  }
  define('shift', (o, length) => {
    const first = o[0]
    move(o, 1, length, -1)
    o.length = length - 1
    return first
  })
  define('unshift', (o, length, items) => {
    move(o, 0, length, items.length)
    for (let k = 0; k < items.length; k++) o[k] = items[k]
    return (o.length = length + items.length)
  })
  define('splice', (o, length, args) => {
    const start = relativeIndex(args[0], length, 0)
    const deleted = args.length === 0 ? 0 : args.length === 1 ? length - start : Math.min(Math.max(toInteger(args[1]), 0), length - start)
    const items = args.slice(2)
    const removed: unknown[] = []
    for (let k = 0; k < deleted; k++) if (start + k in o) removed[k] = o[start + k]
    removed.length = deleted
    move(o, start + deleted, length, items.length - deleted)
    for (let k = 0; k < items.length; k++) o[start + k] = items[k]
    o.length = length - deleted + items.length
    return removed
  })
  define('slice', (o, length, [start, end]) => {
    const first = relativeIndex(start, length, 0)
    const last = relativeIndex(end, length, length)
    const copy: unknown[] = []
    for (let k = first; k < last; k++) if (k in o) copy[k - first] = o[k]
    copy.length = Math.max(last - first, 0)
    return copy
  })
  const nativeSort = proto.sort as (this: unknown[], compare?: unknown) => unknown[]
  define('sort', (o, length, [compare]) => {
    if (compare !== undefined && typeof compare !== 'function') throw new TypeError('Array.prototype.sort: the comparison function must be a function or undefined')
    let items: unknown[] = []
    let undefineds = 0
    for (let k = 0; k < length; k++) {
      if (!(k in o)) continue
      const value = o[k]
      if (value === undefined) undefineds++
      else items[items.length] = value
    }
    // The items, now in a dense array, are sorted natively: a comparison function is bytecode,
    // where the interrupt is polled. Without one, QuickJS compares their texts in C, so long
    // arrays are sorted natively in runs short enough to stay under a pause, and merged here.
    if (compare !== undefined || items.length <= CHUNK) Reflect.apply(nativeSort, items, compare === undefined ? [] : [compare])
    else {
      const RUN = 4096
      for (let start = 0; start < items.length; start += RUN) {
        const run = Reflect.apply(nativeSlice, items, [start, start + RUN]) as unknown[]
        Reflect.apply(nativeSort, run, [])
        for (let k = 0; k < run.length; k++) items[start + k] = run[k]
      }
      let keys = items.map(String)
      for (let width = RUN; width < items.length; width *= 2) {
        const merged: unknown[] = new Array(items.length)
        const mergedKeys: string[] = new Array(items.length)
        for (let left = 0; left < items.length; left += 2 * width) {
          const middle = Math.min(left + width, items.length)
          const right = Math.min(left + 2 * width, items.length)
          let i = left
          let j = middle
          let out = left
          // Stable: the right run's item goes first only when its text is smaller.
          for (; i < middle && j < right; out++) {
            const from = (keys[j] as string) < (keys[i] as string) ? j++ : i++
            merged[out] = items[from]
            mergedKeys[out] = keys[from] as string
          }
          for (; i < middle; i++, out++) (merged[out] = items[i]), (mergedKeys[out] = keys[i] as string)
          for (; j < right; j++, out++) (merged[out] = items[j]), (mergedKeys[out] = keys[j] as string)
        }
        items = merged
        keys = mergedKeys
      }
    }
    let k = 0
    for (; k < items.length; k++) o[k] = items[k]
    for (const end = k + undefineds; k < end; k++) o[k] = undefined
    for (; k < length; k++) delete o[k]
    return o
  })
  const isSpreadable = (value: unknown): value is Indexed => {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false
    const flag = (value as Record<symbol, unknown>)[spreadable]
    return flag !== undefined ? Boolean(flag) : isArray(value)
  }
  const concat = {
    concat(this: unknown, ...items: unknown[]): unknown {
      if (this === null || this === undefined) return Reflect.apply(nativeConcat, this, items)
      const all = [Object(this) as unknown, ...items]
      let long = false
      for (const item of all) if (isSpreadable(item) && toLength(item.length) > CHUNK) long = true
      if (!long) return Reflect.apply(nativeConcat, all[0], items)
      const joined: unknown[] = []
      let n = 0
      for (const item of all) {
        if (!isSpreadable(item)) {
          joined[n++] = item
          continue
        }
        const length = toLength(item.length)
        for (let k = 0; k < length; k++, n++) if (k in item) joined[n] = item[k]
      }
      joined.length = n
      return joined
    },
  }.concat
  Object.defineProperty(concat, 'length', { value: 1 })
  Object.defineProperty(proto, 'concat', { value: concat, writable: true, configurable: true, enumerable: false })
  /** FlattenIntoArray of the spec: writes `source`'s elements into `target` from `start`; returns the next index. */
  const flatten = (target: unknown[], source: Indexed, length: number, start: number, depth: number, mapper?: Callback, self?: unknown): number => {
    let n = start
    for (let k = 0; k < length; k++) {
      if (!(k in source)) continue
      const element = mapper ? Reflect.apply(mapper, self, [source[k], k, source]) : source[k]
      if (depth > 0 && isArray(element)) n = flatten(target, element as unknown as Indexed, toLength((element as unknown[]).length), n, depth - 1)
      else target[n++] = element
    }
    return n
  }
  define('flat', (o, length, [depth]) => {
    const flat: unknown[] = []
    const levels = depth === undefined ? 1 : toInteger(depth)
    flatten(flat, o, length, 0, levels < 0 ? 0 : levels)
    return flat
  }, true)
  define('flatMap', (o, length, [fn, self]) => {
    const flat: unknown[] = []
    flatten(flat, o, length, 0, 1, callable(fn, 'flatMap'), self)
    return flat
  }, true)
  // A typed array's default sort compares in C: past a million elements (about a quarter of a
  // second a run) it sorts runs natively, in place, and merges them here, in bytecode.
  const typed = Object.getPrototypeOf(Int8Array.prototype) as Record<string, (...args: unknown[]) => unknown>
  const typedSort = typed.sort as (...args: unknown[]) => unknown
  const typedSubarray = typed.subarray as (...args: unknown[]) => unknown
  const typedSlice = typed.slice as (...args: unknown[]) => unknown
  const typedSize = Object.getOwnPropertyDescriptor(typed, 'length')?.get
  const TYPED_RUN = 1 << 20
  /** The typed arrays' default order: numbers ascending, -0 before +0, NaN last (bigints by value). */
  const before = (x: unknown, y: unknown): boolean =>
    (x as number) < (y as number) || (typeof x === 'number' && (y !== y ? x === x : x === 0 && y === 0 && 1 / x < 0 && 1 / (y as number) > 0))
  const sortTyped = {
    sort(this: unknown, compare?: unknown): unknown {
      const length = typedSize ? (Reflect.apply(typedSize, this, []) as number) : 0
      if (compare !== undefined || length <= TYPED_RUN) return Reflect.apply(typedSort, this, compare === undefined ? [] : [compare])
      for (let start = 0; start < length; start += TYPED_RUN) Reflect.apply(typedSort, Reflect.apply(typedSubarray, this, [start, start + TYPED_RUN]), [])
      const target = this as Record<number, unknown>
      let from = Reflect.apply(typedSlice, this, []) as Record<number, unknown>
      let to = target
      for (let width = TYPED_RUN; width < length; width *= 2) {
        for (let left = 0; left < length; left += 2 * width) {
          const middle = Math.min(left + width, length)
          const right = Math.min(left + 2 * width, length)
          let i = left
          let j = middle
          let out = left
          for (; i < middle && j < right; out++) to[out] = before(from[j], from[i]) ? from[j++] : from[i++]
          for (; i < middle; i++, out++) to[out] = from[i]
          for (; j < right; j++, out++) to[out] = from[j]
        }
        const written = to
        to = from
        from = written
      }
      // The last pass wrote into the copy: the sorted elements go back into the array.
      if (from !== target) for (let k = 0; k < length; k++) target[k] = from[k]
      return this
    },
  }.sort
  Object.defineProperty(typed, 'sort', { value: sortTyped, writable: true, configurable: true, enumerable: false })
}

/** Puts the globals on the VM's global object. */
export function installGlobals(): void {
  guardAllocations()
  guardParsers()
  guardLongBuiltins(outOfMemory)
  guardSparseLoops()
  const line = (level: string) => (...values: unknown[]) => host.log(level, values.map(text).join(' '))
  const console = { log: line('log'), info: line('info'), debug: line('debug'), warn: line('warn'), error: line('error') }
  const define = (name: string, value: unknown) => Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false })
  define('console', console)
  define('setTimeout', (callback: unknown, delay?: unknown, ...args: unknown[]) => startTimer(callback, delay, args, false))
  define('setInterval', (callback: unknown, delay?: unknown, ...args: unknown[]) => startTimer(callback, delay, args, true))
  define('clearTimeout', stopTimer)
  define('clearInterval', stopTimer)
  define('queueMicrotask', (callback: unknown) => {
    if (typeof callback !== 'function') throw new TypeError('queueMicrotask needs a function.')
    void Promise.resolve().then(callback as Callback)
  })
  define('performance', { now: () => host.now() })
  define('crypto', {
    randomUUID: () => host.randomUUID(),
    getRandomValues<T extends ArrayBufferView>(array: T): T {
      const view = new Uint8Array(array.buffer, array.byteOffset, array.byteLength)
      if (view.length > 65536) throw new RangeError('getRandomValues fills at most 65536 bytes at a time.')
      view.set(hexBytes(view.length))
      return array
    },
  })
  define('fetch', fetchInVm)
  define('Headers', Headers)
  define('Response', Response)
  define('Intl', makeIntl())
  // Worker-style code refers to `self`. Its `postMessage` went to the worker's global channel,
  // which the host never reads; in the VM there is no channel at all, so messages are dropped.
  define('self', globalThis)
  define('postMessage', () => undefined)
}
