/**
 * `getProtocol` inside the QuickJS VM, for `callTools` of the authoring API: rendering a
 * protocol's markup is data in, text out, so it runs in the worker on the worker's copy of the
 * protocols, and the VM carries none of their code (which would cost every sandbox start).
 */
import { host } from './host'

/** A protocol as far as `callTools` needs it: its `render`. `undefined` for an unknown id. */
export function getProtocol(id: string): { render(output: unknown): string } | undefined {
  if (!host.hasProtocol(id)) return undefined
  return { render: (output) => host.render(id, JSON.stringify(output)) }
}
