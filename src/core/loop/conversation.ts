/**
 * The conversation of a run as an immutable sequence that grows in time proportional to what is
 * added, however long it already is (a 10 000-step run holds 20 000 messages; copying them at
 * every backfill made a run quadratic).
 *
 * A `Conversation` is the first `length` messages of a backing array that conversations made
 * from one another share. Appending to the newest one pushes onto the backing; appending to an
 * older one (a fork: time travel, edit-and-continue) copies its messages into a fresh backing
 * first. Positions below a conversation's `length` never change, so no conversation ever sees a
 * message it was not given. This is the tail sharing of Go slices, made safe by copying on fork.
 */
import type { Message } from '../messages'

/** An immutable, append-only list of messages; see the module comment. */
export class Conversation implements Iterable<Message> {
  /** The conversation without messages. */
  static readonly empty: Conversation = new Conversation([], 0)

  /** Number of messages. */
  readonly length: number
  readonly #backing: Message[]
  #array: readonly Message[] | undefined

  private constructor(backing: Message[], length: number) {
    this.#backing = backing
    this.length = length
  }

  /** A conversation of `messages` (copied: later changes to the array do not reach it). O(n). */
  static of(messages: readonly Message[]): Conversation {
    return messages.length === 0 ? Conversation.empty : new Conversation([...messages], messages.length)
  }

  /**
   * This conversation followed by `messages`. O(added) when this is the longest conversation on
   * its backing, O(length + added) for a fork. Returns `this` when `messages` is empty.
   */
  append(messages: readonly Message[]): Conversation {
    if (messages.length === 0) return this
    // The empty conversation is shared by every run: it never lends its backing.
    const backing = this.length > 0 && this.#backing.length === this.length ? this.#backing : this.#backing.slice(0, this.length)
    for (const message of messages) backing.push(message)
    return new Conversation(backing, this.length + messages.length)
  }

  /** The message at `index` (negative counts from the end), `undefined` outside. O(1). */
  at(index: number): Message | undefined {
    const at = index < 0 ? this.length + index : index
    return at >= 0 && at < this.length ? this.#backing[at] : undefined
  }

  /** A new array of the messages in `[from, to)` (clamped to the conversation). O(to − from). */
  slice(from = 0, to = this.length): Message[] {
    return this.#backing.slice(Math.max(0, from), Math.min(Math.max(0, to), this.length))
  }

  /** Every message, as one array made on the first call and shared by later ones: do not change it. O(n) once. */
  toArray(): readonly Message[] {
    this.#array ??= this.#backing.slice(0, this.length)
    return this.#array
  }

  /**
   * The messages this conversation has after `earlier`, when `earlier` is a prefix of it made on
   * the same backing (this one was grown from it); `null` otherwise (a fork, or unrelated). O(added).
   */
  since(earlier: Conversation): Message[] | null {
    return this.extends(earlier) ? this.#backing.slice(earlier.length, this.length) : null
  }

  /** True when `earlier` is a prefix of this conversation made on the same backing (this one was grown from it, or is it). O(1). */
  extends(earlier: Conversation): boolean {
    return earlier.#backing === this.#backing && earlier.length <= this.length
  }

  *[Symbol.iterator](): Iterator<Message> {
    for (let index = 0; index < this.length; index++) yield this.#backing[index]!
  }

  /** The messages as JSON (an array), so a state printed or logged shows them. */
  toJSON(): readonly Message[] {
    return this.toArray()
  }
}
