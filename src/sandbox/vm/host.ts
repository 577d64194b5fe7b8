/**
 * The functions the worker hands to the runtime inside the QuickJS VM (see `quickjs-runtime.ts`),
 * and the VM side's hold on them. Everything crosses the boundary as strings and numbers: values
 * of one engine mean nothing to the other, and strings are copied into the VM's own (capped) heap.
 *
 * The worker puts the host object on `globalThis.__toolstepHost` just before it evaluates the
 * runtime bundle; this module (evaluated first) takes it and removes the global, so user code,
 * which runs later, can never reach it.
 */

/** What the worker offers the VM. Every function is synchronous; results are JSON text. */
export interface VmHost {
  /** sucrase `transform(code, options)`: JSON `{ ok: true, code }` or `{ ok: false, message, loc? }`. */
  transform(code: string, optionsJson: string): string
  /** acorn parse of `code` as a script: `''` when it parses, else JSON `{ message, loc? }` (`loc.column` 0-based). */
  parse(code: string): string
  /** `findTopLevelAwait(code)` of `../top-level-await.ts`: `''` when there is none, else JSON `{ line, column }` (1-based). */
  topLevelAwait(code: string): string
  /**
   * `''` when QuickJS may parse `source`, else why not (`nested too deeply: N levels, limit L`,
   * see `nesting.ts`), to be thrown as a `SyntaxError` before the source reaches QuickJS's parser.
   */
  nesting(source: string): string
  /** Evaluates `source` (one function expression) with stack frames named `file`, and returns the function. */
  compile(source: string, file: string): (...values: unknown[]) => unknown
  /** Writes one console line to the worker's console. `level` is `log`, `info`, `debug`, `warn` or `error`. */
  log(level: string, text: string): void
  /** A monotonic clock, ms (`performance.now()` of the worker). */
  now(): number
  /**
   * True when allocating `bytes` more would take the VM past its memory limit; the VM is then
   * reported out of memory. Asked before typed-array and ArrayBuffer allocations, which QuickJS's
   * own limit lets grow the wasm memory far past the cap (and slowly: each is zero-filled).
   */
  memoryFull(bytes: number): boolean
  /** A random UUID (`crypto.randomUUID()` of the worker). */
  randomUUID(): string
  /** Fills the VM's random bytes: `count` bytes as a string of 2-digit hex. */
  randomHex(count: number): string
  /**
   * Schedules `deliver('timer', id)` after `delayMs` ms. `''` when scheduled; `'ended'` when no
   * work is in flight any more (the call that would own the timer has ended); `'limit'` when
   * too many timers are waiting already.
   */
  setTimer(id: number, delayMs: number): string
  /** Cancels the timer `id` (unknown ids are ignored). */
  clearTimer(id: number): void
  /**
   * Starts `fetch` with the request as JSON `{ url, method, headers, body? }`; answers with
   * `deliver('fetch', id, json)`. `''` when started, `'ended'` when no work is in flight any more.
   */
  fetch(id: number, requestJson: string): string
  /** True when the protocol `id` exists (`getProtocol(id)` of the worker). */
  hasProtocol(id: string): boolean
  /** That protocol's `render` of the JSON `RenderableOutput`; `''` for an unknown id. */
  render(id: string, outputJson: string): string
  /**
   * `Intl` of the worker (QuickJS has none): `new Intl[kind](locales, options)[method](...args)`,
   * with the locales, options and arguments as JSON (a `Date` as its time value, ms). JSON
   * `{ ok: true, value }` or `{ ok: false, name, message }` (e.g. a RangeError for a bad time zone).
   */
  intl(kind: string, locales: string, optionsJson: string, method: string, argsJson: string): string
  /** Reports progress of the code block run under `key` (JSON of a `CodeProgress`). */
  progress(key: string, json: string): void
}

const scope = globalThis as { __toolstepHost?: VmHost }
const taken = scope.__toolstepHost
delete scope.__toolstepHost
if (!taken) throw new Error('The sandbox runtime was evaluated without its host.')

/** The worker's functions, held only in this module's closure. */
export const host: VmHost = taken
