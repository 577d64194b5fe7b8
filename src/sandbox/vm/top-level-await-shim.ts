/**
 * `findTopLevelAwait` inside the QuickJS VM: the parse runs in the worker (see `../top-level-await.ts`),
 * and only the position comes back.
 */
import { host } from './host'

/** See `../top-level-await.ts`. */
export function findTopLevelAwait(code: string): { line: number; column: number } | undefined {
  const reply = host.topLevelAwait(code)
  return reply === '' ? undefined : (JSON.parse(reply) as { line: number; column: number })
}
