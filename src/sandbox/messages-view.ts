/**
 * The `messages` array that `model.ts` and `route()` receive, without copying the conversation.
 *
 * Each request used to hand user code a fresh copy of every message. Past ~16 000 messages V8
 * allocates such an array in its large-object space, and a copy per step cost ~1 ms in
 * allocation and garbage collection alone, so a long run slowed down step after step. A view
 * reads the messages the sandbox keeps, in place, and becomes a private copy the first time
 * user code changes it (copy on write): reading costs O(1) per request, and code that edits its
 * `messages` (push a system prompt, reverse it) still edits only its own array, as before.
 *
 * It is an array to every check user code makes: `Array.isArray`, `instanceof Array`, spread,
 * `for…of`, `JSON.stringify`, the array methods, `Object.keys`. Node's `console.log` and
 * `util.inspect` show its messages (they inspect a Proxy's target, which carries a custom
 * inspector until the copy is made); `structuredClone` of a view is handled by
 * {@link plainMessages} in the Node sandbox, where that global exists.
 */
import type { Message } from '../core/messages'

/** Messages `[from, to)` of `source`, which may grow later but never changes below `to`. */
export interface MessagesPiece {
  source: readonly Message[]
  from: number
  to: number
}

/** Node's well-known symbol for a custom `util.inspect` (a registered symbol, so no import of `node:util`). */
const INSPECT = Symbol.for('nodejs.util.inspect.custom')

/** Each live view and how to read it as a plain array: for {@link plainMessages}. */
const views = new WeakMap<object, () => Message[]>()

/** The array index `key` names when it is one below `length`, else -1 (`'01'`, `'-0'`, `'1e2'` are not indices). */
function indexOf(key: string | symbol, length: number): number {
  if (typeof key !== 'string' || key.length === 0) return -1
  const first = key.charCodeAt(0)
  // Most keys read are method names and `length`: rule them out before converting.
  if (first < 48 || first > 57) return -1
  const index = Number(key)
  return Number.isInteger(index) && index < length && String(index) === key ? index : -1
}

/**
 * A copy-on-write array of the messages of `pieces`, in order. O(pieces) to make; reads are O(1)
 * for one piece (the usual request: the whole conversation), O(pieces) otherwise; the first
 * change (a set, delete, define, `preventExtensions`, `setPrototypeOf`) copies the messages
 * into the array once, O(messages), and from then on it is a plain array behind a pass-through.
 * The messages themselves are shared (the decoder freezes them).
 */
export function messagesView(pieces: readonly MessagesPiece[]): Message[] {
  let length = 0
  for (const piece of pieces) length += piece.to - piece.from
  const single = pieces.length === 1 ? pieces[0] : undefined
  const at = (index: number): Message => {
    if (single) return single.source[single.from + index] as Message
    for (const piece of pieces) {
      const size = piece.to - piece.from
      if (index < size) return piece.source[piece.from + index] as Message
      index -= size
    }
    return undefined as never
  }
  const plain = (): Message[] => {
    const out: Message[] = []
    for (const piece of pieces) for (let index = piece.from; index < piece.to; index++) out.push(piece.source[index] as Message)
    return out
  }
  const target: Message[] = []
  let owned = false
  /** Makes the target hold the messages: from here on the view is the target. */
  const own = (): void => {
    if (owned) return
    owned = true
    delete (target as unknown as Record<symbol, unknown>)[INSPECT]
    let at = 0
    for (const piece of pieces) for (let index = piece.from; index < piece.to; index++) target[at++] = piece.source[index] as Message
  }
  Object.defineProperty(target, INSPECT, {
    configurable: true,
    enumerable: false,
    writable: true,
    value: (_depth: number, options: unknown, inspect: (value: unknown, options: unknown) => string) => inspect(plain(), options),
  })
  const view: Message[] = new Proxy(target, {
    get(array, key, receiver) {
      if (!owned) {
        if (key === 'length') return length
        const index = indexOf(key, length)
        if (index >= 0) return at(index)
      }
      return Reflect.get(array, key, receiver === view ? array : receiver)
    },
    has(array, key) {
      if (!owned && (key === 'length' || indexOf(key, length) >= 0)) return true
      return Reflect.has(array, key)
    },
    getOwnPropertyDescriptor(array, key) {
      if (!owned) {
        // The target's own `length` is non-configurable and writable, so another value may be reported.
        if (key === 'length') return { value: length, writable: true, enumerable: false, configurable: false }
        const index = indexOf(key, length)
        if (index >= 0) return { value: at(index), writable: true, enumerable: true, configurable: true }
        if (key === INSPECT) return undefined
      }
      return Reflect.getOwnPropertyDescriptor(array, key)
    },
    ownKeys(array) {
      if (owned) return Reflect.ownKeys(array)
      const keys: (string | symbol)[] = []
      for (let index = 0; index < length; index++) keys.push(String(index))
      keys.push('length')
      return keys
    },
    set(array, key, value, receiver) {
      own()
      return Reflect.set(array, key, value, receiver === view ? array : receiver)
    },
    defineProperty(array, key, descriptor) {
      own()
      return Reflect.defineProperty(array, key, descriptor)
    },
    deleteProperty(array, key) {
      own()
      return Reflect.deleteProperty(array, key)
    },
    preventExtensions(array) {
      own()
      return Reflect.preventExtensions(array)
    },
    setPrototypeOf(array, prototype) {
      own()
      return Reflect.setPrototypeOf(array, prototype)
    },
  })
  views.set(view, () => (owned ? target.slice() : plain()))
  return view
}

/**
 * `value` as a plain array when it is a view made by {@link messagesView} (its messages as they
 * are now), else `value` itself. For the few built-ins that cannot read a Proxy, such as
 * `structuredClone`.
 */
export function plainMessages<T>(value: T): T | Message[] {
  const read = typeof value === 'object' && value !== null ? views.get(value) : undefined
  return read ? read() : value
}

/** The `structuredClone` installed by {@link cloneViewsAsArrays}, so a second install is a no-op. */
let installed: ((value: unknown, options?: unknown) => unknown) | undefined

/**
 * Makes this realm's `structuredClone` (where there is one: Node, browsers; not the QuickJS VM)
 * clone a view as the plain array of its messages: a Proxy cannot be cloned, and
 * `structuredClone(messages)` is a common way to take a deep copy. Call it before user code runs.
 */
export function cloneViewsAsArrays(): void {
  const realm = globalThis as { structuredClone?: (value: unknown, options?: unknown) => unknown }
  const original = realm.structuredClone
  if (typeof original !== 'function' || original === installed) return
  installed = function structuredClone(value: unknown, options?: unknown): unknown {
    return Reflect.apply(original, realm, [plainMessages(value), options])
  }
  Object.defineProperty(realm, 'structuredClone', { value: installed, writable: true, configurable: true, enumerable: true })
}
