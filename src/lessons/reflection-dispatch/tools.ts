import { tool, z } from 'toolstep'

// Reflection-style dispatch: the tools are the public methods of a class, found by reading its
// prototype, not listed by hand. Only what the reflection exposes can be called: "constructor"
// and inherited methods such as toString are not tools, so a model cannot reach them.
class Notes {
  #notes = new Map<string, string>([['shopping', 'milk, eggs']])

  read({ title }: { title: string }) {
    const text = this.#notes.get(title)
    if (text === undefined) throw new Error(`No note titled "${title}".`)
    return text
  }

  write({ title, text }: { title: string; text: string }) {
    this.#notes.set(title, text)
    return `Saved "${title}".`
  }
}

const SCHEMAS: Record<string, z.ZodObject> = {
  read: z.object({ title: z.string() }),
  write: z.object({ title: z.string(), text: z.string() }),
}

const service = new Notes()
const methods = Object.getOwnPropertyNames(Notes.prototype).filter((name) => name !== 'constructor')

// Safe invoke: the method is called on the instance; what it throws becomes the tool's error
// (written back to the model), never a crash of the loop.
export const notes = Object.fromEntries(
  methods.map((name) => [
    name,
    tool({
      description: `Notes.${name}`,
      inputSchema: SCHEMAS[name] ?? z.object({}),
      execute: (args: Record<string, unknown>) => (service as unknown as Record<string, (a: unknown) => unknown>)[name]!(args),
    }),
  ]),
)
