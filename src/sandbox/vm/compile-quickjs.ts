/**
 * `compileFunction` inside the QuickJS VM: the same function expression V8's `new Function`
 * builds (two header lines before the body, so line offsets are measured alike), evaluated by
 * the worker with the file name QuickJS puts in stack frames (it ignores `//# sourceURL`).
 */
import { host } from './host'

/** See `../compile.ts`. */
export function compileFunction(params: readonly string[], body: string, file: string, options: { async?: boolean } = {}): (...values: unknown[]) => unknown {
  const header = `(${options.async ? 'async ' : ''}function anonymous(${params.join(',')}\n) {\n`
  return host.compile(`${header}${body}\n})`, file)
}
