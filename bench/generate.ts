/**
 * Generated tool-call outputs for the benchmarks: deterministic for a seed, sized to a target,
 * with nested objects, long string arguments, unicode and escaped quotes.
 */
import type { JsonValue } from '../src/core/messages'
import { seededRandom } from '../src/test/fuzz-inputs'

type JsonObject = { [key: string]: JsonValue }

/** One generated call and the renderings the benchmark parses. */
export interface GeneratedCall {
  name: string
  arguments: JsonObject
  /** `{"tool", "arguments"}` as compact JSON. */
  clean: string
  /** Prose, then the call pretty-printed in a ```json fence, then more prose. */
  fenced: string
  /** The call with breakage a model produces (see {@link breakJson}); `breakage` names what was done. */
  broken: string
  breakage: string[]
}

const WORDS = ['weather', 'Zürich', 'café', '東京', 'naïve', 'résumé', 'emoji 😀', 'say "hi"', "it's", 'C:\\temp\\file', 'tab\there', 'line\nbreak', 'Ωμέγα', 'Привет', '🚀 launch', 'x < y && y > z', '{braces}', '[brackets]']
const TOOLS = ['search_products', 'get_weather', 'create_ticket', 'update_record', 'send_email', 'run_query']

function sentence(next: () => number, words: number): string {
  const out: string[] = []
  for (let index = 0; index < words; index++) out.push(WORDS[Math.floor(next() * WORDS.length)] ?? '')
  return out.join(' ')
}

function item(next: () => number, index: number): JsonObject {
  return {
    id: index,
    title: sentence(next, 3 + Math.floor(next() * 5)),
    score: Math.round(next() * 100_000) / 100,
    active: next() < 0.5,
    owner: next() < 0.2 ? null : { name: sentence(next, 2), tags: [sentence(next, 1), sentence(next, 1)], limits: { daily: Math.floor(next() * 1000), ratio: -next() } },
  }
}

/**
 * Arguments whose compact JSON is about `size` bytes: a few scalars, a nested options object, a
 * list of records and a long free-text field (a third of the size).
 */
function makeArguments(next: () => number, size: number): JsonObject {
  const args: JsonObject = {
    query: sentence(next, 4),
    limit: 1 + Math.floor(next() * 50),
    options: { exact: next() < 0.5, sort: { by: 'score', order: 'desc' }, filters: { since: null, tags: ['a', 'b'] } },
  }
  if (size < 300) return args
  const body: string[] = []
  while (body.join(' ').length < size / 3) body.push(sentence(next, 8))
  args.body = body.join(' ')
  const items: JsonValue[] = []
  args.items = items
  let index = 0
  while (JSON.stringify(args).length < size - 100) items.push(item(next, index++))
  // Ends with a string, so an output cut after it is unambiguous. A number at the very end may
  // itself be cut (`12` of `123`): Toolstep reports that as truncated by design, never guesses.
  args.note = sentence(next, 3)
  return args
}

/** A Python-repr style rendering: single quotes (double when the text has an apostrophe), True/False/None. */
function pythonRepr(value: JsonValue): string {
  if (value === null) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') {
    if (value.includes("'") && !value.includes('"')) return JSON.stringify(value)
    return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`
  }
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`
  return `{${Object.entries(value)
    .map(([key, member]) => `${pythonRepr(key)}: ${pythonRepr(member)}`)
    .join(', ')}}`
}

/** Adds a trailing comma before every `}` and `]` that follows a value (outside strings). */
function addTrailingCommas(json: string): string {
  let out = ''
  let inString = false
  let quote = ''
  for (let index = 0; index < json.length; index++) {
    const char = json[index] ?? ''
    if (inString) {
      out += char
      if (char === '\\') {
        out += json[index + 1] ?? ''
        index++
      } else if (char === quote) inString = false
      continue
    }
    if (char === '"' || char === "'") {
      inString = true
      quote = char
    } else if ((char === '}' || char === ']') && !/[[{,\s]$/.test(out)) out += ','
    out += char
  }
  return out
}

/**
 * Breaks a call the ways models do. Every input gets Python-style quoting and literals, and then
 * trailing commas, missing closers at the end, or both.
 */
export function breakJson(call: JsonObject, next: () => number): { text: string; breakage: string[] } {
  let text = pythonRepr(call)
  const breakage = ['single quotes', 'Python literals']
  const roll = next()
  if (roll < 0.67) {
    text = addTrailingCommas(text)
    breakage.push('trailing commas')
  }
  if (roll >= 0.33) {
    // Drop the closers at the end of the output, as a cut-off generation does.
    let end = text.length
    while (end > 0 && (text[end - 1] === '}' || text[end - 1] === ']' || text[end - 1] === ',')) end--
    text = text.slice(0, end)
    breakage.push('missing closers')
  }
  return { text, breakage }
}

/** `count` generated calls of about `size` bytes each (compact JSON), deterministic for `seed`. */
export function generateCalls(size: number, count: number, seed: number): GeneratedCall[] {
  const next = seededRandom(seed)
  const calls: GeneratedCall[] = []
  for (let index = 0; index < count; index++) {
    const name = TOOLS[Math.floor(next() * TOOLS.length)] ?? 'search'
    const args = makeArguments(next, size - 40)
    const value: JsonObject = { tool: name, arguments: args }
    const { text, breakage } = breakJson(value, next)
    calls.push({
      name,
      arguments: args,
      clean: JSON.stringify(value),
      fenced: `Sure, I will call ${name} for that.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n\nI'll report back once it returns.`,
      broken: text,
      breakage,
    })
  }
  return calls
}
