/**
 * The prose of a streamed output, built piece by piece without rescanning what came before.
 */

/** A line that is only a Markdown fence (```` ``` ```` with an optional info string). */
const FENCE_LINE = /^[ \t]*```[\w+-]*[ \t]*$/
/** A line start that may still become a fence line. */
const FENCE_PREFIX = /^[ \t]*(`{0,3}|```[\w+-]*[ \t]*)$/
/** Longer held line starts are plain prose; the bound keeps the fence check constant-time. */
const MAX_FENCE_LINE = 64

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09
}

/**
 * Accumulates visible prose: leading and trailing whitespace trimmed, pieces on either side of a
 * call separated by a line break, fence-only lines left out. Each piece added costs time linear in
 * its own length; the text is only ever appended to (a rope in V8), never copied.
 */
export class ProseText {
  /** The visible text so far. */
  value = ''
  /** Whitespace after `value`, committed only when more text follows. */
  private gap = ''
  /** The start of the current line, held while it may be a fence line. */
  private line = ''
  private holding = true
  /** A call came after `value`: the next text starts a new piece (one line break, no leading space). */
  private separated = false

  /** Adds prose as it appears in the output. */
  add(run: string): void {
    let pos = 0
    while (pos < run.length) {
      const newline = run.indexOf('\n', pos)
      const end = newline < 0 ? run.length : newline
      if (end > pos) this.addInLine(pos === 0 && end === run.length ? run : run.slice(pos, end))
      if (newline < 0) break
      this.endLine()
      pos = newline + 1
    }
  }

  /** A call sits here: what follows is a new piece. */
  separate(): void {
    if (this.holding && !FENCE_LINE.test(this.line)) this.commit(this.line)
    this.line = ''
    this.holding = true
    if (this.value !== '') {
      this.gap = '\n'
      this.separated = true
    }
  }

  /** Forgets everything (a reasoning closer showed that all so far was reasoning). */
  clear(): void {
    this.value = ''
    this.gap = ''
    this.line = ''
    this.holding = true
    this.separated = false
  }

  private addInLine(piece: string): void {
    if (!this.holding) {
      this.commit(piece)
      return
    }
    this.line += piece
    if (this.line.length <= MAX_FENCE_LINE && FENCE_PREFIX.test(this.line)) return
    this.holding = false
    const held = this.line
    this.line = ''
    this.commit(held)
  }

  private endLine(): void {
    if (this.holding && !FENCE_LINE.test(this.line)) this.commit(this.line)
    this.line = ''
    this.holding = true
    this.commit('\n')
  }

  private commit(piece: string): void {
    const fresh = this.value === '' || this.separated
    let start = 0
    let end = piece.length
    while (start < end && isSpace(piece.charCodeAt(start))) start++
    if (start === end) {
      if (!fresh) this.gap += piece
      return
    }
    while (end > start && isSpace(piece.charCodeAt(end - 1))) end--
    const body = start === 0 && end === piece.length ? piece : piece.slice(fresh ? start : 0, end)
    this.value = this.value === '' ? body : this.value + this.gap + body
    this.gap = end < piece.length ? piece.slice(end) : ''
    this.separated = false
  }
}
