/**
 * Finding `await` outside any async function in a module compiled to a CommonJS script. A module
 * body runs as a plain function, where such an `await` is a syntax error the engines word
 * unhelpfully (QuickJS: `expecting ';'`) or place nowhere (V8's `new Function`). acorn cannot
 * flag it itself (a module may await at its top level since ES2022, a script never can), so the
 * script is parsed with `await` allowed there and its tree searched. Inside the QuickJS VM this
 * module is replaced by `vm/top-level-await-shim.ts`, which asks the worker to run it.
 */
import { parse } from 'acorn'

/** Node types whose bodies are their own function scope: an `await` in them is not at the top level. */
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'])

interface Node {
  type: string
  start: number
  await?: boolean
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && typeof (value as { start?: unknown }).start === 'number'
}

/** Start offset of the first top-level `await` (an await expression or `for await`) in `node`, in source order. */
function firstAwait(node: Node): number | undefined {
  if (FUNCTIONS.has(node.type)) return undefined
  if (node.type === 'AwaitExpression' || (node.type === 'ForOfStatement' && node.await === true)) return node.start
  let found: number | undefined
  for (const value of Object.values(node)) {
    const children: unknown[] = Array.isArray(value) ? value : [value]
    for (const child of children) {
      if (!isNode(child)) continue
      const at = firstAwait(child)
      if (at !== undefined && (found === undefined || at < found)) found = at
    }
  }
  return found
}

/**
 * Where `code` awaits outside any async function (`line` and `column` 1-based), or `undefined`
 * when it does not, or does not parse (other errors are located elsewhere).
 */
export function findTopLevelAwait(code: string): { line: number; column: number } | undefined {
  let tree: unknown
  try {
    tree = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true })
  } catch {
    return undefined
  }
  const offset = isNode(tree) ? firstAwait(tree) : undefined
  if (offset === undefined) return undefined
  const before = code.slice(0, offset)
  const lineStart = before.lastIndexOf('\n') + 1
  return { line: before.split('\n').length, column: offset - lineStart + 1 }
}
