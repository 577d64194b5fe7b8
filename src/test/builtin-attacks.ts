/**
 * User code that replaces built-ins the sandbox relies on, shared by the runtime's tests (V8 and
 * QuickJS) and the CLI sandbox's: each attack with the words its error names it by, and files
 * that run it in a tool and in model.ts.
 */

const header = "import { tool, z } from 'toolstep'\n"

/** Each attack (a statement of user code), and how the error names it. */
export const ATTACKS: [string, string][] = [
  ['(Object.prototype as any).x = 1', 'added Object.prototype.x'],
  ['JSON.stringify = () => "{}"', 'replaced JSON.stringify'],
  ['JSON.parse = () => ({})', 'replaced JSON.parse'],
  ['Array.prototype.map = () => []', 'replaced Array.prototype.map'],
  ['Promise.prototype.then = function (this: any) { return this }', 'replaced Promise.prototype.then'],
  ['(Object.prototype as any).then = function (resolve: (v: unknown) => void) { resolve("hijacked") }', 'added Object.prototype.then'],
]

/** Tools: `bad` runs the attack (after a pause when `later`), `good` exercises zod and JSON. */
export const toolsWith = (attack: string) => `${header}
export const bad = tool({ description: '', inputSchema: z.object({ later: z.boolean() }), execute: async ({ later }) => {
  if (later) await new Promise((resolve) => setTimeout(resolve, 1))
  ;${attack}
  return 'done'
} })
export const good = tool({ description: '', inputSchema: z.object({ items: z.array(z.number()) }), execute: ({ items }) => ({ doubled: items.map((n) => n * 2) }) })
`

/** A model that runs the attack on step 0 and answers with a tool call on later steps. */
export const modelWith = (attack: string) => `export default async function model(ctx: { step: number }) {
  if (ctx.step === 0) { ;${attack} }
  return { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'good', arguments: { items: [1, 2] } } }] }
}`

