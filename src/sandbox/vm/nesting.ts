/**
 * How deeply a piece of JavaScript nests, measured before QuickJS parses it.
 *
 * Why: QuickJS's parser recurses once per nested bracket, function or template, and each level
 * takes far more of the browser's native stack (under the wasm code) than of the VM's own stack,
 * which is the one QuickJS checks. Source nested some 500–600 brackets deep (`'('.repeat(800)`,
 * fewer nested functions) overflowed the native stack and killed the VM with every call in it,
 * instead of throwing an error the code could catch. Nesting without brackets (`!!!…`, `a?b:c?…`,
 * `if () if () …`) costs the parser little native stack per level, and QuickJS's own check stops it.
 *
 * The scan is linear and never recurses: it skips strings, comments, regular expression literals
 * and the text of template literals (not their `${…}`), and counts `(`, `[`, `{` and `${`.
 */

/**
 * Nesting the browser sandbox lets QuickJS parse, counted as {@link nestingDepth} counts it.
 * QuickJS failed at about 520 (nested functions, two brackets each, in Node; a worker of the
 * browser has about as much stack, less what the sandbox's own frames below a tool call take:
 * 255 levels of nested template arrows overflowed it); hand-written code rarely nests past 30.
 */
export const MAX_NESTING = 192

/**
 * Words after which a `/` starts a regular expression rather than a division. Only reserved words:
 * `of`, `yield` and `await` may name variables, and a regular expression after them (rare) only
 * counts its brackets, while a division after them read as a regular expression would hide
 * brackets.
 */
const BEFORE_REGEX = new Set(['return', 'typeof', 'instanceof', 'in', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else'])

const isIdentifierChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 36 || code === 95 || code > 127

/**
 * The deepest nesting of brackets (`(`, `[`, `{`) and template substitutions (`${`) in `source`,
 * outside strings, comments, regular expressions and template text. Unbalanced closers are
 * ignored; the source need not parse. Linear in the length of `source`.
 */
export function nestingDepth(source: string): number {
  const length = source.length
  let depth = 0
  let max = 0
  /** For each open `{` or `${`, true when it is a template substitution (its `}` resumes the template). */
  const braces: boolean[] = []
  /** What came last outside whitespace and comments: 'value' (a `/` after it divides), or 'operator'. */
  let last: 'value' | 'operator' = 'operator'
  let index = 0
  /** Set after a `/` found no end on its line: up to there, every `/` divides. */
  let noRegexUntil = 0

  /** Skips template text from `index` (just past a backtick or a substitution's `}`) to its end or next `${`. */
  const templateText = (): void => {
    while (index < length) {
      const char = source.charCodeAt(index)
      if (char === 92) index += 2
      else if (char === 96) {
        index++
        last = 'value'
        return
      } else if (char === 36 && source.charCodeAt(index + 1) === 123) {
        index += 2
        braces.push(true)
        if (++depth > max) max = depth
        last = 'operator'
        return
      } else index++
    }
  }

  while (index < length) {
    const char = source.charCodeAt(index)
    // Whitespace and line ends.
    if (char === 32 || (char >= 9 && char <= 13) || char === 0xa0 || char === 0xfeff || char === 0x2028 || char === 0x2029) {
      index++
      continue
    }
    if (char === 47) {
      const next = source.charCodeAt(index + 1)
      if (next === 47) {
        while (index < length && source.charCodeAt(index) !== 10 && source.charCodeAt(index) !== 13) index++
        continue
      }
      if (next === 42) {
        const end = source.indexOf('*/', index + 2)
        index = end === -1 ? length : end + 2
        continue
      }
      if (last === 'operator' && index >= noRegexUntil) {
        // A regular expression literal: to its closing `/` outside a class on the same line.
        // Without one it was a division after all, and what follows is counted; so is every
        // other `/` of that line (scanning to its end again for each would make the scan quadratic).
        let end = index + 1
        let inClass = false
        let closed = false
        while (end < length) {
          const c = source.charCodeAt(end)
          if (c === 10 || c === 13) break
          end++
          if (c === 92) end++
          else if (c === 91) inClass = true
          else if (c === 93) inClass = false
          else if (c === 47 && !inClass) {
            closed = true
            break
          }
        }
        if (!closed) noRegexUntil = end
        else {
          index = end
          while (index < length && isIdentifierChar(source.charCodeAt(index))) index++
          last = 'value'
          continue
        }
      }
      index++
      last = 'operator'
      continue
    }
    if (char === 39 || char === 34) {
      index++
      while (index < length) {
        const c = source.charCodeAt(index)
        if (c === char) {
          index++
          break
        }
        if (c === 10 || c === 13) break
        index += c === 92 ? 2 : 1
      }
      last = 'value'
      continue
    }
    if (char === 96) {
      index++
      templateText()
      continue
    }
    if (char === 40 || char === 91 || char === 123) {
      if (char === 123) braces.push(false)
      if (++depth > max) max = depth
      index++
      last = 'operator'
      continue
    }
    if (char === 41 || char === 93 || char === 125) {
      if (depth > 0) depth--
      index++
      last = 'value'
      if (char === 125 && braces.pop() === true) templateText()
      continue
    }
    if (isIdentifierChar(char)) {
      const start = index
      while (index < length && isIdentifierChar(source.charCodeAt(index))) index++
      // A keyword as a property name (`x.return / 2`) is a value like any other name.
      let before = start - 1
      while (before >= 0 && (source.charCodeAt(before) === 32 || source.charCodeAt(before) === 9)) before--
      const word = source.slice(start, index)
      last = BEFORE_REGEX.has(word) && source.charCodeAt(before) !== 46 ? 'operator' : 'value'
      continue
    }
    // `++` and `--` after a value are postfix: a `/` after them divides.
    if ((char === 43 || char === 45) && source.charCodeAt(index + 1) === char) {
      index += 2
      continue
    }
    index++
    last = 'operator'
  }
  return max
}

/**
 * The message of source nested deeper than {@link MAX_NESTING}, or `undefined` when it is not.
 * The caller throws it as a `SyntaxError`, before QuickJS parses the source.
 */
export function nestingProblem(source: string): string | undefined {
  const depth = nestingDepth(source)
  return depth > MAX_NESTING ? `nested too deeply: ${depth} levels, limit ${MAX_NESTING}` : undefined
}
