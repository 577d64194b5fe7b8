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
  if (value === null || typeof value !== 'object') return 0
  // Two parallel stacks rather than a [node, depth] pair per node: a 500 000-object value
  // allocated as many pairs, and their garbage was most of the walk's time on the page.
  const nodes: object[] = [value]
  const depths: number[] = [1]
  let deepest = 0
  while (nodes.length > 0) {
    const node = nodes.pop()!
    const depth = depths.pop()!
    if (depth > deepest) {
      deepest = depth
      if (deepest > limit) return deepest
    }
    if (Array.isArray(node)) {
      for (const child of node) {
        if (child !== null && typeof child === 'object') {
          nodes.push(child as object)
          depths.push(depth + 1)
        }
      }
    } else {
      for (const key in node) {
        if (!Object.hasOwn(node, key)) continue
        const child = (node as Record<string, unknown>)[key]
        if (child !== null && typeof child === 'object') {
          nodes.push(child)
          depths.push(depth + 1)
        }
      }
    }
  }
  return deepest
}

/** `Nested deeper than 512 levels.` when `value` nests deeper than `limit`, else `undefined`. Iterative. */
export function tooDeep(value: unknown, limit = MAX_JSON_DEPTH): string | undefined {
  return jsonDepth(value, limit) > limit ? `nested deeper than ${limit} levels` : undefined
}

type Frame = { items: readonly JsonValue[]; keys: null; next: number } | { items: JsonObject; keys: string[]; next: number }

/** Texts of long values, by object (see {@link jsonOf}). */
const longTexts = new WeakMap<object, string>()
/** Texts at least this long (UTF-16 code units) are remembered by {@link jsonOf}. */
export const REMEMBERED_JSON_CHARS = 65_536

/**
 * `JSON.stringify(value)`, remembered per object when the text is long: one call's arguments are
 * written for the tool batch, the repeated-call check, the view and the next model request, and
 * 500 000 small objects cost ~80 ms a time. Sound because the engine never changes a value in
 * place once it is in an event or a message (edits make new objects).
 *
 * @throws RangeError, as `JSON.stringify` does, for nesting too deep to write
 */
export function jsonOf(value: object): string {
  const known = longTexts.get(value)
  if (known !== undefined) return known
  const text = JSON.stringify(value)
  if (text.length >= REMEMBERED_JSON_CHARS) longTexts.set(value, text)
  return text
}

/**
 * Remembers `text` as `value`'s JSON (`as: 'json'`, for {@link jsonOf}), as its
 * {@link stableJson} (`'stable'`), or both (`'both'`: its keys are in order, the two are the
 * same): text written elsewhere (the engine's phase worker writes a wide call's arguments as it
 * sends them) is not written again. Short texts are not kept. The caller vouches for the text.
 */
export function rememberJson(value: object, text: string, as: 'json' | 'stable' | 'both'): void {
  if (text.length < REMEMBERED_JSON_CHARS) return
  if (as !== 'stable') longTexts.set(value, text)
  if (as !== 'json') stableTexts.set(value, text)
}

/** Texts of long values {@link stableJson} wrote, or {@link rememberJson} was given, by object. */
const stableTexts = new WeakMap<object, string>()

/** The text {@link jsonOf} remembers for `value`, if any (a cheap check before building text around it). */
export function rememberedJson(value: object): string | undefined {
  return longTexts.get(value)
}

/**
 * `{…rest, "key": text}`: the JSON of `rest` with one more member whose value is already JSON text
 * (big arguments written once by {@link jsonOf}). Members of `rest` keep their order; `key` comes last.
 */
export function jsonWithMember(rest: object, key: string, text: string): string {
  return `${memberHead(rest, key)}${text}}`
}

/** `{…rest, "key":` : the text {@link jsonWithMember} writes before the member's value (then comes the value and `}`). */
export function memberHead(rest: object, key: string): string {
  const head = JSON.stringify(rest)
  return `${head.slice(0, -1)}${head === '{}' ? '' : ','}${JSON.stringify(key)}:`
}

/**
 * A tool call (any object with `arguments`) as JSON, its arguments' text through {@link jsonOf}
 * (written once for big arguments, and shared); `arguments` comes last.
 */
export function callJson({ arguments: args, ...rest }: { arguments: object }): string {
  return jsonWithMember(rest, 'arguments', jsonOf(args))
}

/**
 * Pushes `call` as JSON onto `out`, the text {@link callJson} writes: long arguments' text as a
 * piece of its own, so that it is never copied into a longer string (the pieces are posted in
 * parts, see text-parts.ts in the sandbox).
 */
export function pushCallJson({ arguments: args, ...rest }: { arguments: object }, out: string[]): void {
  const text = jsonOf(args)
  if (text.length < REMEMBERED_JSON_CHARS) out.push(jsonWithMember(rest, 'arguments', text))
  else out.push(memberHead(rest, 'arguments'), text, '}')
}

/**
 * JSON text with object keys sorted (by UTF-16 code units), so `{a,b}` and `{b,a}` give the same
 * text: the identity of a call's arguments for repeated-call detection and session diffs.
 * Iterative, any depth; O(size + keys × log keys).
 */
export function stableJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return keysInOrder(value) ? JSON.stringify(value) : walkStable(value)
  const known = stableTexts.get(value)
  if (known !== undefined) return known
  // Keys already in order (what models and most code write): the engine's own writer gives the
  // same text some twenty times faster than the walk below (500 000 small objects: ~50 ms, not ~800).
  const text = keysInOrder(value) ? jsonOf(value) : walkStable(value)
  if (text.length >= REMEMBERED_JSON_CHARS) stableTexts.set(value, text)
  return text
}

/** {@link stableJson} by walking the value, its keys sorted. */
function walkStable(value: JsonValue): string {
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
 * True when `JSON.stringify(value)` is the text {@link stableJson} writes: plain data (strings,
 * numbers, booleans, null, arrays, objects of `Object.prototype` or none) at most
 * {@link MAX_JSON_DEPTH} deep, each object's keys enumerated in sorted order. Iterative; O(size).
 */
function keysInOrder(value: unknown): boolean {
  // Two flat stacks, not one of pairs: no allocation per node.
  const nodes: unknown[] = [value]
  const depths: number[] = [0]
  while (nodes.length > 0) {
    const node = nodes.pop()
    const depth = depths.pop()!
    if (node === null || typeof node !== 'object') {
      if (!isScalar(node)) return false
      continue
    }
    if (depth >= MAX_JSON_DEPTH) return false
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        const item: unknown = node[index]
        if (item !== null && typeof item === 'object') {
          nodes.push(item)
          depths.push(depth + 1)
        } else if (!isScalar(item)) return false
      }
      continue
    }
    const prototype: unknown = Object.getPrototypeOf(node)
    if (prototype !== Object.prototype && prototype !== null) return false
    let previous: string | null = null
    for (const key in node) {
      if (!Object.hasOwn(node, key)) return false
      if (previous !== null && !(previous < key)) return false
      previous = key
      const item: unknown = (node as Record<string, unknown>)[key]
      if (item !== null && typeof item === 'object') {
        nodes.push(item)
        depths.push(depth + 1)
      } else if (!isScalar(item)) return false
    }
  }
  return true
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
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

/** A member that JSON leaves out of an object (and writes as `null` in an array). */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol'
}

/** What JSON writes for `value`: its `toJSON()` result when it has one (a `Date`), else itself. */
function jsonForm(value: unknown, key: string): unknown {
  const toJSON = value !== null && typeof value === 'object' ? (value as { toJSON?: unknown }).toJSON : undefined
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, key) : value
}

/** Levels of {@link jsonText} that get line breaks and indentation. */
export const INDENTED_LEVELS = 64

interface TextFrame {
  close: string
  /** Each member as [the text before its value, the value]. */
  members: [string, unknown][]
  next: number
}

/**
 * `JSON.stringify(value, null, indent)` for data (plain objects, arrays, strings, numbers,
 * booleans, null; `toJSON` honoured, `undefined` and functions left out as JSON does), written
 * with an explicit stack: `JSON.stringify` itself overflows the stack on values nested some
 * thousands of levels deep. Same text as `JSON.stringify` for values up to {@link INDENTED_LEVELS}
 * deep; deeper levels are written without line breaks, so the text stays linear in the value's
 * size (indenting 100 000 levels would take billions of spaces). O(size).
 *
 * @param indent spaces per level (0: compact)
 */
export function jsonText(value: unknown, indent = 0): string {
  const out: string[] = []
  const stack: TextFrame[] = []
  const pad = (depth: number): string => (indent > 0 && depth <= INDENTED_LEVELS ? `\n${' '.repeat(indent * depth)}` : '')
  const write = (raw: unknown, key: string): void => {
    const node = jsonForm(raw, key)
    if (node === null || typeof node !== 'object') {
      out.push(isSkipped(node) ? 'null' : (JSON.stringify(node) ?? 'null'))
      return
    }
    const depth = stack.length + 1
    const members: [string, unknown][] = []
    if (Array.isArray(node)) {
      node.forEach((item: unknown, index) => members.push([`${index > 0 ? ',' : ''}${pad(depth)}`, isSkipped(item) ? null : item]))
    } else {
      for (const [member, item] of Object.entries(node as Record<string, unknown>)) {
        if (isSkipped(jsonForm(item, member))) continue
        members.push([`${members.length > 0 ? ',' : ''}${pad(depth)}${JSON.stringify(member)}:${indent > 0 && depth <= INDENTED_LEVELS ? ' ' : ''}`, item])
      }
    }
    const [open, close] = Array.isArray(node) ? ['[', ']'] : ['{', '}']
    if (members.length === 0) {
      out.push(open + close)
      return
    }
    out.push(open)
    stack.push({ close: `${depth <= INDENTED_LEVELS ? pad(depth - 1) : ''}${close}`, members, next: 0 })
  }
  write(value, '')
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    const member = top.members[top.next++]
    if (member === undefined) {
      out.push(top.close)
      stack.pop()
      continue
    }
    out.push(member[0])
    write(member[1], String(top.next - 1))
  }
  return out.join('')
}
