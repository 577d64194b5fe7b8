import { tool, z } from 'toolstep'

// Long conversations overflow the context. A sliding window keeps the system prompt and the last
// N messages (never splitting a tool call from its result). The price: early messages, here even
// the user's question, fall out of view — the "sudden amnesia" of long chats.

const CHAPTERS = ['The call', 'The parser', 'The schema', 'The loop', 'The timeout', 'The answer']

export const read_chapter = tool({
  description: 'Read one chapter of the handbook (1 to 6).',
  inputSchema: z.object({ chapter: z.number().int().min(1).max(CHAPTERS.length) }),
  execute: ({ chapter }) => `Chapter ${chapter}: ${CHAPTERS[chapter - 1]}. ${'Lorem ipsum dolor sit amet. '.repeat(3)}`,
})
