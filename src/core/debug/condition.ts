/**
 * Breakpoint and eval conditions: small expressions such as
 * `call.name == 'charge' && call.arguments.amount > 100`, evaluated by Jexl (an interpreter:
 * the text is parsed into a tree and walked, never handed to `eval` or `new Function`).
 * Language reference: https://github.com/TomFrost/Jexl (operators `== != < <= > >= && || ! in`,
 * `a ? b : c`, `list[.field == value]` filters). Toolstep adds the function `count(list)`.
 */
import jexl from 'jexl'
import type Ast from 'jexl/Ast'
import { errorMessage } from '../util'

/** The names a condition may use; anything else is a parse error naming the known ones. */
export const CONDITION_NAMES = ['phase', 'turn', 'event', 'call', 'calls', 'verdicts', 'result', 'errors', 'repairs', 'anomalies'] as const

/** Functions a condition may call. */
const FUNCTIONS: Record<string, (...args: unknown[]) => unknown> = {
  /** Length of a list (or string); 0 for anything else. Jexl's `list.length` reads the first item's `length`. */
  count: (value) => (Array.isArray(value) || typeof value === 'string' ? value.length : 0),
}

const engine = new jexl.Jexl()
for (const [name, fn] of Object.entries(FUNCTIONS)) engine.addFunction(name, fn)

/** A condition that parsed: `test` never throws; an evaluation error is returned, not thrown. */
export interface CompiledCondition {
  source: string
  test(context: Readonly<Record<string, unknown>>): { value: boolean; error?: string }
}

/**
 * Parse a condition. Never throws; linear in the text. An empty text is the condition `true`.
 * The error is one sentence naming what is wrong (`Unexpected end of expression`, an unknown
 * name with the known ones, an unbalanced bracket, `.length` used on a list).
 */
export function compileCondition(source: string): { ok: true; condition: CompiledCondition } | { ok: false; error: string } {
  const text = source.trim()
  if (text === '') return { ok: true, condition: { source, test: () => ({ value: true }) } }
  const balance = checkBrackets(text)
  if (balance) return { ok: false, error: balance }
  let ast: Ast | undefined
  let expression: ReturnType<typeof engine.createExpression>
  try {
    expression = engine.compile(text)
    ast = expression._getAst() as Ast | undefined
  } catch (error) {
    return { ok: false, error: `Cannot parse the condition: ${error instanceof Error ? error.message.replace(/: [^:]*$/, '') : String(error)}.` }
  }
  if (!ast) return { ok: true, condition: { source, test: () => ({ value: true }) } }
  const problem = checkNames(ast)
  if (problem) return { ok: false, error: problem }
  return {
    ok: true,
    condition: {
      source,
      test(context) {
        try {
          return { value: truthy(expression.evalSync(context) as unknown) }
        } catch (error) {
          return { value: false, error: errorMessage(error) }
        }
      },
    },
  }
}

/** Empty lists and objects count as false, so `errors[.code == 'x']` reads as "some error is x". */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0
  return Boolean(value)
}

/** Jexl accepts some unclosed brackets (`(a`); say so instead of guessing. Skips quoted text. */
function checkBrackets(text: string): string | null {
  const stack: string[] = []
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' }
  let quote: string | null = null
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quote) {
      if (ch === '\\') i++
      else if (ch === quote) quote = null
      continue
    }
    if (ch === '"' || ch === "'") quote = ch
    else if (ch === '(' || ch === '[' || ch === '{') stack.push(ch)
    else if (ch in pairs) {
      if (stack.pop() !== pairs[ch]) return `Cannot parse the condition: unexpected "${ch}" at character ${i + 1}.`
    }
  }
  if (quote) return `Cannot parse the condition: the string opened with ${quote} is not closed.`
  if (stack.length > 0) return `Cannot parse the condition: "${stack.at(-1)}" is not closed.`
  return null
}

function checkNames(root: Ast): string | null {
  const pending: Ast[] = [root]
  while (pending.length > 0) {
    const node = pending.pop()!
    switch (node.type) {
      case 'Identifier':
        if (node.from) {
          if (node.value === 'length') return 'Use count(list) for the number of items: `.length` is not supported in conditions.'
          pending.push(node.from)
        } else if (!node.relative && !(CONDITION_NAMES as readonly string[]).includes(node.value)) {
          return `Unknown name "${node.value}" in the condition. Known names: ${CONDITION_NAMES.join(', ')}.`
        }
        break
      case 'FunctionCall':
        if (node.pool === 'transforms' || !(node.name in FUNCTIONS)) return `Unknown function "${node.name}" in the condition. Known functions: ${Object.keys(FUNCTIONS).join(', ')}.`
        pending.push(...node.args)
        break
      case 'UnaryExpression':
        pending.push(node.right)
        break
      case 'BinaryExpression':
        pending.push(node.left, node.right)
        break
      case 'ConditionalExpression':
        pending.push(node.test, node.consequent, node.alternate)
        break
      case 'FilterExpression':
        pending.push(node.subject, node.expr)
        break
      case 'ArrayLiteral':
        pending.push(...node.value)
        break
      case 'ObjectLiteral':
        pending.push(...Object.values(node.value))
        break
      case 'Literal':
        break
    }
  }
  return null
}
