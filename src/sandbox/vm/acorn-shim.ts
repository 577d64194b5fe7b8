/**
 * `acorn` inside the QuickJS VM: only used to find where a syntax error is, so the parse runs in
 * the worker and only the error (with acorn's `loc`, column 0-based) comes back.
 */
import { host } from './host'

/** Throws acorn's error (with `loc`) when `code` does not parse; the options are the worker's fixed ones. */
export function parse(code: string, _options?: unknown): object {
  const reply = host.parse(code)
  if (reply === '') return {}
  const { message, loc } = JSON.parse(reply) as { message: string; loc?: { line: number; column: number } }
  const error = new SyntaxError(message) as SyntaxError & { loc?: unknown }
  if (loc) error.loc = loc
  throw error
}
