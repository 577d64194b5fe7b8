/**
 * zod's `z.locales` inside the QuickJS VM: English only. The other locales are 50 modules of
 * code that every sandbox start would have to parse, for messages the runtime never shows.
 */
export { default as en } from 'zod/v4/locales/en.js'
