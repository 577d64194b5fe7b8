/**
 * A JSON value as a sequence of flat parts, and back. A structured clone of one value is made
 * and read in one task each side: a tool call's arguments of 500 000 small objects held the page
 * for ~270 ms when the engine's phase worker sent them back. Cut into parts of a bounded number
 * of operations, each part is a `Uint8Array` of operations and an array of the scalars and keys
 * they take, both cheap to clone; the receiver rebuilds the value part by part, one task each.
 * Iterative on both sides: the value may nest as deep as its maker allowed.
 */
import type { JsonObject, JsonValue } from '../messages'
import { setMember } from './json-object'

/**
 * One part of a value: `ops[i]` is one of {@link OP}; `values` holds, in order, what the
 * `scalar`, `key` and `chunk` operations take. A `chunk` is the beginning of the string the next
 * `scalar` or `key` ends: a string of megabytes is cut into chunks, so no part is big.
 */
export interface JsonPart {
  ops: Uint8Array
  values: unknown[]
}

/** The operations of a {@link JsonPart}. */
export const OP = { scalar: 0, openArray: 1, openObject: 2, close: 3, key: 4, chunk: 5 } as const

/** Operations per part by default: a part is built and read in a few ms. */
export const JSON_PART_OPS = 65_536

/** Nodes (objects, arrays, scalars) from which {@link isWideJson} calls a value wide. */
export const WIDE_JSON_NODES = 20_000
/** Chars of strings (keys and values) from which {@link isWideJson} calls a value wide. */
export const WIDE_JSON_CHARS = 1_000_000
/** Chars of strings one part carries, about: longer strings are cut into chunks of this. */
export const JSON_PART_CHARS = 1_000_000

/**
 * True when `value` holds at least `nodes` nodes (objects, arrays and scalars) or `chars` chars
 * of strings, counted up to that many and no further: O(min(size, nodes)).
 */
export function isWideJson(value: unknown, nodes = WIDE_JSON_NODES, chars = WIDE_JSON_CHARS): boolean {
  if (value === null || typeof value !== 'object') return typeof value === 'string' && value.length >= chars
  const pending: object[] = [value]
  let seen = 0
  let text = 0
  while (pending.length > 0) {
    const node = pending.pop()!
    const isArray = Array.isArray(node)
    const children: unknown[] = isArray ? node : Object.values(node)
    seen += 1 + children.length
    if (seen >= nodes) return true
    if (!isArray) for (const key of Object.keys(node)) text += key.length
    for (const child of children) {
      if (child !== null && typeof child === 'object') pending.push(child)
      else if (typeof child === 'string') text += child.length
    }
    if (text >= chars) return true
  }
  return false
}

/**
 * `value` cut into parts of at most `opsPerPart` operations (see {@link JsonPart}); the last part
 * may be shorter. Array holes and `undefined` members go as `undefined` scalars. O(size).
 */
export function toJsonParts(value: JsonValue, opsPerPart = JSON_PART_OPS, charsPerPart = JSON_PART_CHARS): JsonPart[] {
  const parts: JsonPart[] = []
  let ops = new Uint8Array(opsPerPart)
  let values: unknown[] = []
  let count = 0
  let chars = 0
  const put = (op: number, taken?: unknown, takes = false): void => {
    if (count === opsPerPart || chars >= charsPerPart) {
      parts.push({ ops: ops.subarray(0, count), values })
      ops = new Uint8Array(opsPerPart)
      values = []
      count = 0
      chars = 0
    }
    ops[count++] = op
    if (!takes) return
    values.push(taken)
    if (typeof taken === 'string') chars += taken.length
  }
  // A long string (a key or a scalar) goes as chunks, then its end with the operation itself.
  const emit = (op: number, taken?: unknown, takes = false): void => {
    if (typeof taken === 'string' && taken.length > charsPerPart) {
      let at = 0
      for (; taken.length - at > charsPerPart; at += charsPerPart) put(OP.chunk, taken.slice(at, at + charsPerPart), true)
      return put(op, taken.slice(at), true)
    }
    put(op, taken, takes)
  }
  // Frames: the node and where its walk is; `keys` only for objects.
  const nodes: object[] = []
  const keys: (string[] | null)[] = []
  const next: number[] = []
  const open = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return emit(OP.scalar, node, true)
    const isArray = Array.isArray(node)
    emit(isArray ? OP.openArray : OP.openObject)
    nodes.push(node)
    keys.push(isArray ? null : Object.keys(node))
    next.push(0)
  }
  open(value)
  while (nodes.length > 0) {
    const top = nodes.length - 1
    const node = nodes[top]!
    const names = keys[top]!
    const at = next[top]!
    const length = names ? names.length : (node as unknown[]).length
    if (at === length) {
      emit(OP.close)
      nodes.pop()
      keys.pop()
      next.pop()
      continue
    }
    next[top] = at + 1
    if (names) {
      const name = names[at]!
      emit(OP.key, name, true)
      open((node as Record<string, unknown>)[name])
    } else open((node as unknown[])[at])
  }
  parts.push({ ops: ops.subarray(0, count), values })
  return parts
}

/** Rebuilds a value from its {@link JsonPart}s, fed in order. */
export interface JsonPartsReader {
  /** Reads one part. @throws Error when the parts are not those of one value, in order */
  feed(part: JsonPart): void
  /** The value, once every part was fed. @throws Error when it is not complete */
  value(): JsonValue
}

/** Creates a {@link JsonPartsReader}. */
export function readJsonParts(): JsonPartsReader {
  const stack: (JsonValue[] | JsonObject)[] = []
  const isArray: boolean[] = []
  let root: JsonValue | undefined
  let done = false
  let key = ''
  /** Chunks of a long string whose end has not come yet. */
  let chunks: string[] = []
  const whole = (end: string): string => {
    if (chunks.length === 0) return end
    chunks.push(end)
    const text = chunks.join('')
    chunks = []
    return text
  }
  const put = (item: JsonValue): void => {
    const top = stack.length - 1
    if (top < 0) {
      if (done) throw new Error('The parts hold more than one value.')
      root = item
      done = true
      return
    }
    if (isArray[top]) (stack[top] as JsonValue[]).push(item)
    else setMember(stack[top] as JsonObject, key, item)
  }
  return {
    feed({ ops, values }) {
      let taken = 0
      for (let index = 0; index < ops.length; index++) {
        switch (ops[index]) {
          case OP.scalar: {
            const scalar = values[taken++] as JsonValue
            put(typeof scalar === 'string' ? whole(scalar) : scalar)
            break
          }
          case OP.chunk:
            chunks.push(String(values[taken++]))
            break
          case OP.openArray: {
            const array: JsonValue[] = []
            put(array)
            stack.push(array)
            isArray.push(true)
            break
          }
          case OP.openObject: {
            const object: JsonObject = {}
            put(object)
            stack.push(object)
            isArray.push(false)
            break
          }
          case OP.close:
            if (stack.length === 0) throw new Error('The parts close more than they open.')
            stack.pop()
            isArray.pop()
            break
          case OP.key:
            key = whole(String(values[taken++]))
            break
          default:
            throw new Error(`Unknown operation ${String(ops[index])} in a part.`)
        }
      }
    },
    value() {
      if (!done || stack.length > 0 || chunks.length > 0) throw new Error('The value is not complete: parts are missing.')
      return root as JsonValue
    },
  }
}
