/**
 * `compileFunction` inside the QuickJS VM: the same function expression V8's `new Function`
 * builds (two header lines before the body, so line offsets are measured alike), evaluated by
 * the worker with the file name QuickJS puts in stack frames (it ignores `//# sourceURL`).
 * Source nested too deeply for QuickJS's parser is refused first (see `nesting.ts`).
 */
import { host } from './host'

/** See `../compile.ts`. */
export function compileFunction(params: readonly string[], body: string, file: string, options: { async?: boolean } = {}): (...values: unknown[]) => unknown {
  const header = `(${options.async ? 'async ' : ''}function anonymous(${params.join(',')}\n) {\n`
  const source = `${header}${body}\n})`
  const problem = host.nesting(source)
  if (problem !== '') throw new SyntaxError(problem)
  return host.compile(source, file)
}
