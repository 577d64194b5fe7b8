/**
 * `sucrase` inside the QuickJS VM: the transform runs in the worker (V8, fast) on the worker's
 * copy of sucrase, so the VM neither carries nor interprets the compiler. Same result and the
 * same errors (`message`, `loc`) as the library.
 */
import { host } from './host'

/** The subset of sucrase's `transform` the runtime uses. */
export function transform(code: string, options: { transforms: string[]; filePath?: string }): { code: string } {
  const reply = JSON.parse(host.transform(code, JSON.stringify(options))) as { ok: true; code: string } | { ok: false; message: string; loc?: { line: number; column: number } }
  if (reply.ok) return { code: reply.code }
  const error = new SyntaxError(reply.message) as SyntaxError & { loc?: unknown }
  if (reply.loc) error.loc = reply.loc
  throw error
}
