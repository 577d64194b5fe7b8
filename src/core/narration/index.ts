/**
 * Public surface of core/narration: one plain-words sentence for the event at the cursor, as a
 * translation key and its parameters (the UI translates; core stays free of UI text).
 */
export { narrate, NARRATION_KEYS, type Narration, type NarrationKey, type NarrationParams } from './narrate'
