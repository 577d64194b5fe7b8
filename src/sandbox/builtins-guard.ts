/**
 * Keeps the built-ins the sandbox's own code relies on (JSON, Object, Array and Promise methods,
 * the iterator protocol, …) as they were before any user code ran. User code shares its realm
 * with the runtime (zod, the reply path), so `JSON.stringify = () => '{}'` or
 * `Object.prototype.then = …` in a tool would otherwise break every later call and surface as a
 * crash or a garbled reply blamed on whatever ran next.
 *
 * {@link guardBuiltins} takes a snapshot of the own properties of about thirty intrinsic objects;
 * `restore()` puts back whatever changed since (replaced, added or
 * deleted properties, a swapped prototype) and says what it was, so the runtime can fail the call that did
 * it with a plain message ({@link builtinsChangedError}). The runtime restores right after each
 * piece of user code returns and again when its promise settles, before its own code runs.
 *
 * Everything here uses functions captured when this module loads, and only index loops and
 * null-prototype records, so it works whatever user code did in between.
 *
 * Pure JavaScript: runs in the Node sandbox and inside the browser's QuickJS VM.
 */
import { SANDBOX_ERROR_NAMES } from './error-names'
import type { SerializedError } from './protocol'

const ownKeys = Reflect.ownKeys
const getDescriptor = Reflect.getOwnPropertyDescriptor
const defineProperty = Reflect.defineProperty
const deleteProperty = Reflect.deleteProperty
const getPrototypeOf = Reflect.getPrototypeOf
const setPrototypeOf = Reflect.setPrototypeOf
const apply = Reflect.apply
const symbolDescription = getDescriptor(Symbol.prototype, 'description')?.get
const NativePromise = Promise
const promiseResolve = Promise.resolve.bind(Promise) as (value: unknown) => Promise<unknown>
const promiseThen = Promise.prototype.then

/**
 * Global names whose binding is watched (not the whole global object: user code may keep its own
 * globals between calls).
 */
const GLOBAL_NAMES = [
  'Object', 'Function', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'Promise', 'Map', 'Set', 'WeakMap',
  'WeakSet', 'JSON', 'Reflect', 'RegExp', 'Error', 'TypeError', 'RangeError', 'SyntaxError', 'Proxy',
] as const

/** One watched object: its label in messages, and its own properties and prototype at the snapshot. */
interface Watched {
  target: object
  label: string
  /** Only these keys are compared (the global object); otherwise every own key, and additions too. */
  only: boolean
  keys: (string | symbol)[]
  descriptors: Record<string | symbol, PropertyDescriptor>
  /** The keys of data properties, and their values (compared by reading them). */
  dataKeys: (string | symbol)[]
  dataValues: unknown[]
  /** The keys of getters and setters (compared by descriptor). */
  accessorKeys: (string | symbol)[]
  /** How many own keys it had. */
  count: number
  prototype: object | null
}

/** What {@link guardBuiltins} returns. */
export interface BuiltinsGuard {
  /**
   * Puts back every watched built-in that changed since the snapshot (see {@link mayHaveChanged}
   * for what is compared) and returns what changed
   * (`replaced JSON.stringify`, `added Object.prototype.then`); empty when nothing did. Never throws.
   */
  restore(): string[]
  /**
   * {@link restore} when a quick look at the built-ins the sandbox's reply path uses most (JSON,
   * `Object.prototype` additions, `Promise.prototype.then`, the common Array and Object methods)
   * finds one changed; else nothing. For each call of a batch, where a full look per call would
   * cost more than the call (the QuickJS VM); the batch's end and the next request look fully.
   */
  quick(): string[]
}

/** What {@link BuiltinsGuard.quick} reads, as `[object, key]`; `Object.prototype` is also counted for additions. */
function quickKeys(arrayIterator: object): [object, string | symbol][] {
  return [
    [globalThis, 'JSON'], [globalThis, 'Promise'], [globalThis, 'Object'], [globalThis, 'Array'],
    [JSON, 'parse'], [JSON, 'stringify'], [Promise, 'resolve'], [Promise.prototype, 'then'],
    [Array.prototype, 'map'], [Array.prototype, 'forEach'], [Array.prototype, 'push'], [Array.prototype, 'filter'],
    [Array.prototype, 'join'], [Array.prototype, 'slice'], [Array.prototype, Symbol.iterator], [arrayIterator, 'next'],
    [Object, 'keys'], [Object, 'entries'], [Object, 'defineProperty'], [Object.prototype, 'hasOwnProperty'],
    [Object.prototype, 'toString'], [Function.prototype, 'call'], [Function.prototype, 'apply'], [Function.prototype, 'bind'],
  ]
}

function keyLabel(key: string | symbol): string {
  if (typeof key === 'string') return `.${key}`
  const description = symbolDescription ? (apply(symbolDescription, key, []) as string | undefined) : undefined
  return `[${description ?? 'symbol'}]`
}

function same(a: unknown, b: unknown): boolean {
  // NaN is the only value not equal to itself; a property holding it has not changed.
  return a === b || (a !== a && b !== b)
}

/**
 * Whether anything of `entry` may have changed: cheap enough to run after every call of a batch
 * of thousands in the QuickJS VM. Data properties are compared by reading them (a descriptor per
 * property costs several times more), so a getter put in place of a data property runs here,
 * and one that returns the original value goes unnoticed (as does its harm). Attributes alone
 * (`Object.freeze`) are not compared.
 */
function mayHaveChanged(entry: Watched): boolean {
  const { target, dataKeys, dataValues, accessorKeys } = entry
  if (getPrototypeOf(target) !== entry.prototype) return true
  if (!entry.only && ownKeys(target).length !== entry.count) return true
  const read = target as Record<string | symbol, unknown>
  // One loop without calls or try per key: in the VM each costs as much as the read.
  try {
    for (let index = 0; index < dataKeys.length; index++) {
      const now = read[dataKeys[index] as string | symbol]
      const before = dataValues[index]
      // NaN (Number.NaN) is the only value not equal to itself.
      if (now !== before && (now === now || before === before)) return true
    }
  } catch {
    return true
  }
  for (let index = 0; index < accessorKeys.length; index++) {
    const key = accessorKeys[index] as string | symbol
    const now = getDescriptor(target, key)
    const before = entry.descriptors[key] as PropertyDescriptor
    if (!now || now.get !== before.get || now.set !== before.set) return true
  }
  return false
}

/**
 * The intrinsic objects to watch, with their labels. Taken from the realm this runs in. Not `Math`'s
 * or `Date`'s members: code may mock `Math.random` or `Date.now` for repeatable tools, and the
 * sandbox's plumbing keeps its own clock.
 */
function intrinsics(arrayIterator: object): [object, string][] {
  const iteratorOf = (value: { [Symbol.iterator](): object }) => getPrototypeOf(value[Symbol.iterator]()) as object
  const list: [object, string][] = [
    [Object, 'Object'], [Object.prototype, 'Object.prototype'], [Function.prototype, 'Function.prototype'],
    [Array, 'Array'], [Array.prototype, 'Array.prototype'], [String, 'String'], [String.prototype, 'String.prototype'],
    [Number, 'Number'], [Number.prototype, 'Number.prototype'], [Boolean.prototype, 'Boolean.prototype'],
    [Symbol.prototype, 'Symbol.prototype'], [Promise, 'Promise'], [Promise.prototype, 'Promise.prototype'],
    [Map, 'Map'], [Map.prototype, 'Map.prototype'], [Set.prototype, 'Set.prototype'], [WeakMap.prototype, 'WeakMap.prototype'],
    [WeakSet.prototype, 'WeakSet.prototype'], [JSON, 'JSON'], [Reflect, 'Reflect'],
    [Error.prototype, 'Error.prototype'], [RegExp.prototype, 'RegExp.prototype'],
    [getPrototypeOf(arrayIterator) as object, 'the iterator prototype'], [arrayIterator, 'the array iterator prototype'],
    [iteratorOf(new Map()), 'the Map iterator prototype'], [iteratorOf(new Set()), 'the Set iterator prototype'],
    [iteratorOf(''), 'the string iterator prototype'],
  ]
  return list
}

function snapshot(target: object, label: string, only?: readonly string[]): Watched {
  const keys = only ? [...only] : ownKeys(target)
  const descriptors = Object.create(null) as Record<string | symbol, PropertyDescriptor>
  const dataKeys: (string | symbol)[] = []
  const dataValues: unknown[] = []
  const accessorKeys: (string | symbol)[] = []
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string | symbol
    const descriptor = getDescriptor(target, key)
    if (descriptor) descriptors[key] = descriptor
    if (descriptor && !('value' in descriptor)) {
      accessorKeys.push(key)
    } else {
      dataKeys.push(key)
      dataValues.push(descriptor?.value)
    }
  }
  const count = ownKeys(target).length
  return { target, label, only: only !== undefined, keys, descriptors, dataKeys, dataValues, accessorKeys, count, prototype: getPrototypeOf(target) }
}

/**
 * Takes the snapshot; call before any user code runs in this realm. See the module comment.
 */
export function guardBuiltins(): BuiltinsGuard {
  const watched: Watched[] = [snapshot(globalThis, 'globalThis', GLOBAL_NAMES)]
  const arrayIterator = getPrototypeOf([][Symbol.iterator]()) as object
  const list = intrinsics(arrayIterator)
  const quickList = quickKeys(arrayIterator)
  const quickTargets: object[] = []
  const quickNames: (string | symbol)[] = []
  const quickValues: unknown[] = []
  for (let index = 0; index < quickList.length; index++) {
    const [target, key] = quickList[index] as [object, string | symbol]
    quickTargets[index] = target
    quickNames[index] = key
    quickValues[index] = (target as Record<string | symbol, unknown>)[key]
  }
  const objectKeys = ownKeys(Object.prototype).length
  const objectPrototype = Object.prototype
  for (let index = 0; index < list.length; index++) {
    const [target, label] = list[index] as [object, string]
    watched[watched.length] = snapshot(target, label)
  }

  function restoreOne(entry: Watched, changes: string[]): void {
    const { target, label, descriptors } = entry
    const name = (key: string | symbol) => (label === 'globalThis' && typeof key === 'string' ? key : `${label}${keyLabel(key)}`)
    const note = (text: string, restored: boolean) => {
      changes[changes.length] = restored ? text : `${text} (which could not be undone)`
    }
    if (getPrototypeOf(target) !== entry.prototype) note(`changed the prototype of ${label}`, setPrototypeOf(target, entry.prototype))
    for (let index = 0; index < entry.keys.length; index++) {
      const key = entry.keys[index] as string | symbol
      const before = descriptors[key]
      const now = getDescriptor(target, key)
      if (before === undefined) {
        if (now !== undefined) note(`added ${name(key)}`, deleteProperty(target, key))
        continue
      }
      if (now === undefined) {
        note(`deleted ${name(key)}`, defineProperty(target, key, before))
        continue
      }
      if (same(before.value, now.value) && before.get === now.get && before.set === now.set) continue
      note(`replaced ${name(key)}`, defineProperty(target, key, before))
    }
    if (entry.only) return
    const current = ownKeys(target)
    for (let index = 0; index < current.length; index++) {
      const key = current[index] as string | symbol
      if (descriptors[key] === undefined) note(`added ${name(key)}`, deleteProperty(target, key))
    }
  }

  function restore(): string[] {
      const changes: string[] = []
      for (let index = 0; index < watched.length; index++) {
        try {
          if (mayHaveChanged(watched[index] as Watched)) restoreOne(watched[index] as Watched, changes)
        } catch {
          // A Proxy set as a prototype can throw from its traps; what could be put back has been.
          changes[changes.length] = `changed ${(watched[index] as Watched).label} in a way that could not be undone`
        }
      }
      return changes
  }

  return {
    restore,
    quick() {
      try {
        if (ownKeys(objectPrototype).length !== objectKeys) return restore()
        for (let index = 0; index < quickTargets.length; index++) {
          if ((quickTargets[index] as Record<string | symbol, unknown>)[quickNames[index] as string | symbol] !== quickValues[index]) return restore()
        }
      } catch {
        return restore()
      }
      return []
    },
  }
}

/**
 * The error of a call whose code changed built-ins: `who` is the code (`Tool "send_email"`,
 * `model.ts`, `tools.ts at its top level`), `changes` what {@link BuiltinsGuard.restore} found.
 */
export function builtinsChangedError(who: string, changes: readonly string[]): SerializedError {
  const shown = changes.length > 4 ? [...changes.slice(0, 3), `${changes.length - 3} more`] : [...changes]
  const listed = shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : (shown[0] ?? '')
  return {
    name: SANDBOX_ERROR_NAMES.builtinsChanged,
    message: `${who} ${listed}. The sandbox relies on the built-ins, so it puts them back after each call and fails the call that changed them; use your own functions instead of changing built-ins.`,
  }
}

/** How a piece of user code ended, after built-ins were put back. */
export type GuardedOutcome = { ok: true; value: unknown; changes: string[] } | { ok: false; error: unknown; changes: string[] }

/**
 * Calls `work` (user code) and hears how it ended through `done`, with the built-ins it changed
 * (as `check` finds them: {@link BuiltinsGuard.restore} or `quick`) put back right after its synchronous part and again when the promise it returned settles (so
 * an `Object.prototype.then` it added cannot hijack the runtime resolving its reply). A thenable
 * that is not a native promise is adopted as `await` would. `done` runs in the same job as the
 * promise's own reaction; it is called exactly once and this function never throws.
 */
export function callGuarded(check: (() => string[]) | undefined, work: () => unknown, done: (outcome: GuardedOutcome) => void): void {
  const restore = () => (check ? check() : [])
  let value: unknown
  try {
    value = work()
  } catch (error) {
    done({ ok: false, error, changes: restore() })
    return
  }
  const early = restore()
  const later = (settled: unknown, ok: boolean) => {
    const late = restore()
    const changes: string[] = []
    for (let index = 0; index < early.length; index++) changes[changes.length] = early[index] as string
    for (let index = 0; index < late.length; index++) changes[changes.length] = late[index] as string
    done(ok ? { ok: true, value: settled, changes } : { ok: false, error: settled, changes })
  }
  try {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || typeof (value as { then?: unknown }).then !== 'function') {
      done({ ok: true, value, changes: early })
      return
    }
    const promise = value instanceof NativePromise ? value : promiseResolve(value)
    void apply(promiseThen, promise, [(resolved: unknown) => later(resolved, true), (error: unknown) => later(error, false)])
  } catch (error) {
    later(error, false)
  }
}

/** {@link callGuarded} as a promise (which never rejects). */
export function runGuarded(check: (() => string[]) | undefined, work: () => unknown): Promise<GuardedOutcome> {
  return new NativePromise((resolve) => callGuarded(check, work, resolve))
}
