import { tool, z } from 'toolstep'

// ─── get_weather ─────────────────────────────────────────────────────────────
// Fake but deterministic: the same city always gets the same weather, so runs replay identically.

const CONDITIONS = ['sunny', 'partly cloudy', 'cloudy', 'light rain', 'heavy rain', 'snow', 'fog', 'windy']

/** FNV-1a: a tiny stable hash, enough to spread cities over the fake data. */
function hash(text: string): number {
  let value = 0x811c9dc5
  for (const char of text.toLowerCase()) {
    value ^= char.codePointAt(0) ?? 0
    value = Math.imul(value, 0x01000193) >>> 0
  }
  return value
}

export const get_weather = tool({
  description: 'Get the current weather for a city.',
  inputSchema: z.object({
    city: z.string().min(1).describe('City name, e.g. "Paris"'),
    unit: z.enum(['celsius', 'fahrenheit']).default('celsius').describe('Temperature unit'),
  }),
  execute: ({ city, unit }) => {
    const seed = hash(city.trim())
    const celsius = (seed % 36) - 5
    return {
      city: city.trim(),
      temperature: unit === 'celsius' ? celsius : Math.round((celsius * 9) / 5 + 32),
      unit,
      conditions: CONDITIONS[seed % CONDITIONS.length],
      humidityPercent: 30 + (seed % 61),
      windKph: seed % 40,
    }
  },
})

// ─── calculate ───────────────────────────────────────────────────────────────
// A safe arithmetic evaluator: a tokenizer and a precedence-climbing parser. No eval, no Function.
// Precedence, low to high: + -  <  * / %  <  unary -  <  ^ (right-associative), so -2^2 = -4,
// 2^3^2 = 512 and 2^-1 = 0.5. `**` is accepted as a synonym of `^`.

/** An expression that cannot be evaluated. `position` is 1-based, in characters. */
export class ExpressionError extends Error {
  position: number
  constructor(message: string, position: number) {
    super(message)
    this.name = 'ExpressionError'
    this.position = position
  }
}

/** Longest expression accepted, in characters: bounds the work a single call can cause. */
export const MAX_EXPRESSION_LENGTH = 10_000
/** Deepest nesting of parentheses, unary signs and powers: bounds recursion, so no stack overflow. */
export const MAX_NESTING = 200

type Operator = '+' | '-' | '*' | '/' | '%' | '^'
type Token =
  | { kind: 'number'; value: number; position: number }
  | { kind: 'operator'; value: Operator; position: number }
  | { kind: 'paren'; value: '(' | ')'; position: number }
  | { kind: 'end'; position: number }

function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let index = 0
  while (index < source.length) {
    const char = source[index] as string
    const position = index + 1
    if (/\s/.test(char)) {
      index += 1
    } else if (/[0-9.]/.test(char)) {
      let end = index
      while (end < source.length && /[0-9.]/.test(source[end] as string)) end += 1
      const text = source.slice(index, end)
      if (!/^(\d+\.?\d*|\.\d+)$/.test(text)) throw new ExpressionError(`Malformed number "${text}" at position ${position}`, position)
      tokens.push({ kind: 'number', value: Number(text), position })
      index = end
    } else if (char === '*' && source[index + 1] === '*') {
      tokens.push({ kind: 'operator', value: '^', position })
      index += 2
    } else if ('+-*/%^'.includes(char)) {
      tokens.push({ kind: 'operator', value: char as Operator, position })
      index += 1
    } else if (char === '(' || char === ')') {
      tokens.push({ kind: 'paren', value: char, position })
      index += 1
    } else {
      throw new ExpressionError(`Unexpected character "${char}" at position ${position}`, position)
    }
  }
  tokens.push({ kind: 'end', position: source.length + 1 })
  return tokens
}

const BINARY: Record<Operator, { precedence: number; rightAssociative: boolean }> = {
  '+': { precedence: 1, rightAssociative: false },
  '-': { precedence: 1, rightAssociative: false },
  '*': { precedence: 2, rightAssociative: false },
  '/': { precedence: 2, rightAssociative: false },
  '%': { precedence: 2, rightAssociative: false },
  '^': { precedence: 4, rightAssociative: true },
}
/** Unary minus binds tighter than `*` but looser than `^`. */
const UNARY_PRECEDENCE = 3

function describe(token: Token): string {
  if (token.kind === 'end') return 'end of expression'
  if (token.kind === 'number') return `number ${token.value}`
  return `"${token.value}"`
}

function apply(operator: Operator, left: number, right: number, position: number): number {
  if ((operator === '/' || operator === '%') && right === 0) {
    throw new ExpressionError(`${operator === '/' ? 'Division' : 'Modulo'} by zero at position ${position}`, position)
  }
  const result =
    operator === '+' ? left + right
    : operator === '-' ? left - right
    : operator === '*' ? left * right
    : operator === '/' ? left / right
    : operator === '%' ? left % right
    : left ** right
  if (!Number.isFinite(result)) {
    throw new ExpressionError(`"${operator}" at position ${position} gives a result that is not a finite number`, position)
  }
  return result
}

/**
 * Evaluates an arithmetic expression: numbers (with decimals), `+ - * / % ^`, parentheses and
 * unary minus/plus.
 * @throws {ExpressionError} on empty, malformed or too long/deep input, division or modulo by
 *   zero, or a non-finite result; the message names the 1-based position.
 */
export function evaluateExpression(source: string): number {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw new ExpressionError(`Expression is too long: ${source.length} characters (at most ${MAX_EXPRESSION_LENGTH})`, MAX_EXPRESSION_LENGTH + 1)
  }
  const tokens = tokenize(source)
  let index = 0
  let depth = 0
  const peek = () => tokens[index] as Token
  const enter = (token: Token) => {
    depth += 1
    if (depth > MAX_NESTING) {
      throw new ExpressionError(`Expression is nested too deeply at position ${token.position} (at most ${MAX_NESTING} levels)`, token.position)
    }
  }

  function parseOperand(): number {
    const token = peek()
    enter(token)
    try {
      if (token.kind === 'operator' && (token.value === '-' || token.value === '+')) {
        index += 1
        const operand = parseBinary(UNARY_PRECEDENCE + 1)
        return token.value === '-' ? -operand : operand
      }
      if (token.kind === 'number') {
        index += 1
        return token.value
      }
      if (token.kind === 'paren' && token.value === '(') {
        index += 1
        const value = parseBinary(1)
        const close = peek()
        if (close.kind !== 'paren' || close.value !== ')') {
          throw new ExpressionError(`Expected ")" at position ${close.position} to close "(" at position ${token.position}, found ${describe(close)}`, close.position)
        }
        index += 1
        return value
      }
      if (token.kind === 'end') {
        throw new ExpressionError(
          source.trim() === '' ? 'Expression is empty' : `Unexpected end of expression at position ${token.position}: expected a number or "("`,
          token.position,
        )
      }
      throw new ExpressionError(`Unexpected ${describe(token)} at position ${token.position}: expected a number or "("`, token.position)
    } finally {
      depth -= 1
    }
  }

  function parseBinary(minPrecedence: number): number {
    let left = parseOperand()
    for (;;) {
      const token = peek()
      if (token.kind !== 'operator') return left
      const { precedence, rightAssociative } = BINARY[token.value]
      if (precedence < minPrecedence) return left
      index += 1
      enter(token)
      try {
        const right = parseBinary(rightAssociative ? precedence : precedence + 1)
        left = apply(token.value, left, right, token.position)
      } finally {
        depth -= 1
      }
    }
  }

  const value = parseBinary(1)
  const rest = peek()
  if (rest.kind !== 'end') throw new ExpressionError(`Unexpected ${describe(rest)} at position ${rest.position}`, rest.position)
  // -0 would print as "0" but compare oddly; normalise it.
  return Object.is(value, -0) ? 0 : value
}

export const calculate = tool({
  description: 'Evaluate an arithmetic expression with + - * / % ^ and parentheses, e.g. "(12 + 30) * 2".',
  inputSchema: z.object({
    expression: z.string().min(1).describe('The expression to evaluate'),
  }),
  execute: ({ expression }) => {
    // 15 significant digits hide binary floating-point noise: 0.1 + 0.2 gives 0.3, not 0.30000000000000004.
    const result = Number(evaluateExpression(expression).toPrecision(15))
    return { expression, result }
  },
})

// ─── get_time ────────────────────────────────────────────────────────────────

export const get_time = tool({
  description: 'Get the current date and time in a time zone.',
  inputSchema: z.object({
    timezone: z.string().optional().describe('IANA time zone, e.g. "Europe/Paris"; UTC when omitted'),
  }),
  execute: ({ timezone = 'UTC' }) => {
    let format: Intl.DateTimeFormat
    try {
      format = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, dateStyle: 'full', timeStyle: 'long' })
    } catch {
      throw new Error(`Unknown time zone "${timezone}". Use an IANA name such as "Europe/Paris" or "America/New_York".`)
    }
    const now = new Date()
    return { timezone, local: format.format(now), iso: now.toISOString() }
  },
})
