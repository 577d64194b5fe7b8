/**
 * Compiles user code into a function whose stack frames name `file`, the one place the runtime
 * turns text into code. In V8 (the Node sandbox) that is `new Function` with a `sourceURL`
 * comment; inside the QuickJS VM of the browser sandbox this module is replaced by
 * `vm/compile-quickjs.ts`, because QuickJS ignores `sourceURL` and names such frames `<input>`.
 */

/** Constructor of async functions: a body compiled with it may `await` at its top level. */
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as FunctionConstructor

/**
 * `params` become the function's parameters and `body` its body; errors thrown from it carry
 * `file` in their stack frames. Line numbers in those frames are offset by the header the engine
 * puts before the body, which callers measure (see `FUNCTION_LINE_OFFSET` in `user-errors.ts`).
 * Throws a `SyntaxError` (without a position) when `body` does not parse.
 */
export function compileFunction(params: readonly string[], body: string, file: string, options: { async?: boolean } = {}): (...values: unknown[]) => unknown {
  const Maker = options.async ? AsyncFunction : Function
  return new Maker(...params, `${body}\n//# sourceURL=${file}`) as (...values: unknown[]) => unknown
}
