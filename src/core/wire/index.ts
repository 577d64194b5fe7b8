/** Provider wire formats written from canonical messages. */
export * from './openai-chat'
export * from './stream-arguments'
