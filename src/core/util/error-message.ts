/** The text of anything that was thrown, for messages shown to the user or written back to the model. */

/**
 * The message of a thrown value. Pure; never throws.
 *
 * - an `Error` (of this realm or another: a worker, `node:vm`) → its `message`;
 * - any other object with a string `message` (a serialised error, a `DOMException` copy) → that;
 * - a string → itself;
 * - anything else → `String(value)`, or `'unknown error'` when even that throws
 *   (`Object.create(null)`, or a `toString` that throws).
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message
  try {
    return String(error)
  } catch {
    return 'unknown error'
  }
}
