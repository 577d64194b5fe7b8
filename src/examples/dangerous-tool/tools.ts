import { tool, z } from 'toolstep'

// A tool that changes the world is marked dangerous: the loop stops in the confirm phase and the
// user approves, denies or edits the call. A denial is written back as the call's result, so the
// model learns it was declined instead of waiting for a result that never comes.

const FILES = new Map<string, string>([
  ['notes/todo.md', '- buy milk'],
  ['notes/old-draft.md', 'an old draft nobody needs'],
  ['notes/ideas.md', 'tool-use playground'],
])

export const list_files = tool({
  description: 'List the files in the notes folder.',
  inputSchema: z.object({}),
  execute: () => [...FILES.keys()],
})

export const delete_file = tool({
  description: 'Delete a file. Cannot be undone.',
  dangerous: true,
  inputSchema: z.object({ path: z.string().min(1).describe('Path of the file, e.g. "notes/todo.md"') }),
  execute: ({ path }) => {
    if (!FILES.delete(path)) throw new Error(`No such file: ${path}`)
    return `Deleted ${path}. Remaining: ${[...FILES.keys()].join(', ')}`
  },
})
