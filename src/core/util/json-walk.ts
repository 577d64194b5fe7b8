/**
 * Walks over JSON values without recursion: a tool call's arguments come from models and logs
 * and may nest thousands of levels deep, where a recursive walk (and even `JSON.stringify`)
 * overflows the stack. Values deeper than {@link MAX_JSON_DEPTH} are refused where they enter
 * (tool-call parsers, log import, session and workspace files), with a message naming the limit.
 */
import type { JsonObject, JsonValue } from '../messages'

/**
 * How deep a JSON value (tool-call arguments) may nest, in levels of objects and arrays inside
 * one another. The tool-call parsers stop at the same depth (`too_deep`).
 */
export const MAX_JSON_DEPTH = 512

/** How deep a JSON file (log, session, workspace) may nest: a value at {@link MAX_JSON_DEPTH} plus room for the file's own structure. */
export const MAX_FILE_DEPTH = 1000

/**
 * The depth of `value` (0 for a scalar, 1 for `{}` or `[]`, …), counted up to `limit + 1` and no
 * further, so a value far deeper than the limit costs no more than one at the limit. Iterative.
 * O(nodes visited).
 */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0
  const pending: [unknown, number][] = [[value, 1]]
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!
    if (node === null || typeof node !== 'object') continue
    if (depth > deepest) deepest = depth
    if (deepest > limit) return deepest
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>)
    for (const child of children) if (child !== null && typeof child === 'object') pending.push([child, depth + 1])
  }
  return deepest
}

/** `Nested deeper than 512 levels.` when `value` nests deeper than `limit`, else `undefined`. Iterative. */
export function tooDeep(value: unknown, limit = MAX_JSON_DEPTH): string | undefined {
  return jsonDepth(value, limit) > limit ? `nested deeper than ${limit} levels` : undefined
}

type Frame = { items: readonly JsonValue[]; keys: null; next: number } | { items: JsonObject; keys: string[]; next: number }

/**
 * JSON text with object keys sorted (by UTF-16 code units), so `{a,b}` and `{b,a}` give the same
 * text: the identity of a call's arguments for repeated-call detection and session diffs.
 * Iterative, any depth; O(size + keys × log keys).
 */
export function stableJson(value: JsonValue): string {
  const out: string[] = []
  const stack: Frame[] = []
  const open = (node: JsonValue | undefined): void => {
    if (Array.isArray(node)) {
      out.push('[')
      stack.push({ items: node, keys: null, next: 0 })
    } else if (node !== null && typeof node === 'object') {
      out.push('{')
      stack.push({ items: node, keys: Object.keys(node).sort(), next: 0 })
    } else {
      out.push(JSON.stringify(node ?? null))
    }
  }
  open(value)
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    if (top.keys === null) {
      if (top.next === top.items.length) {
        out.push(']')
        stack.pop()
        continue
      }
      if (top.next > 0) out.push(',')
      open(top.items[top.next++])
      continue
    }
    if (top.next === top.keys.length) {
      out.push('}')
      stack.pop()
      continue
    }
    const key = top.keys[top.next++]!
    out.push(`${top.next > 1 ? ',' : ''}${JSON.stringify(key)}:`)
    open(top.items[key])
  }
  return out.join('')
}

/**
 * True when every key of `expected` is in `actual` with a matching value (objects match
 * partially, recursively; arrays and scalars exactly, arrays item by item). Iterative.
 */
export function partialJsonMatch(expected: JsonValue, actual: JsonValue | undefined): boolean {
  const pending: [JsonValue, JsonValue | undefined][] = [[expected, actual]]
  while (pending.length > 0) {
    const [want, got] = pending.pop()!
    if (want === null || typeof want !== 'object') {
      if (want !== got) return false
      continue
    }
    if (Array.isArray(want)) {
      if (!Array.isArray(got) || got.length !== want.length) return false
      want.forEach((item, index) => pending.push([item, got[index]]))
      continue
    }
    if (got === null || typeof got !== 'object' || Array.isArray(got) || got === undefined) return false
    for (const [key, value] of Object.entries(want)) pending.push([value, Object.hasOwn(got, key) ? got[key] : undefined])
  }
  return true
}
