import { describe, expect, it } from 'vitest'
import { MAX_NESTING, nestingDepth, nestingProblem } from './nesting'

describe('nestingDepth: how deeply source nests before QuickJS parses it', () => {
  it('counts brackets, braces and template substitutions', () => {
    expect(nestingDepth('1 + 2')).toBe(0)
    expect(nestingDepth('f(a[0], { b: [1] })')).toBe(3)
    expect(nestingDepth('('.repeat(800) + '1' + ')'.repeat(800))).toBe(800)
    expect(nestingDepth('`a ${`b ${c}`} d`')).toBe(2)
    expect(nestingDepth('`${ { a: 1 } }` + (x)')).toBe(2)
  })

  it('skips strings, comments, regular expressions and template text', () => {
    expect(nestingDepth(`'((((' + "[[[[" + \`{{{{\` // ((((\n/* [[[[ */ x`)).toBe(0)
    expect(nestingDepth('const r = /(((([/]/g.test(s)')).toBe(1)
    expect(nestingDepth('return /((((/')).toBe(0)
    expect(nestingDepth("'it\\'s ((' + x")).toBe(0)
  })

  it('reads a `/` after a value as a division, so brackets after it are counted', () => {
    const deep = '('.repeat(300) + '1' + ')'.repeat(300)
    for (const before of ['a / ', 'a++ / ', 'x.return / ', 'of / ', '(a) / ', 'a[0] / ']) {
      expect(nestingDepth(`${before}${deep} / 2`), before).toBeGreaterThanOrEqual(300)
    }
    // A `/` that starts no regular expression on its line hides nothing either.
    expect(nestingDepth(`x = / ${deep}`)).toBe(300)
    expect(nestingDepth(`=/[`.repeat(2000))).toBeGreaterThanOrEqual(2000)
  })

  it('names source past the limit, and nothing at it', () => {
    expect(nestingProblem('['.repeat(MAX_NESTING) + ']'.repeat(MAX_NESTING))).toBeUndefined()
    expect(nestingProblem('['.repeat(800))).toBe(`nested too deeply: 800 levels, limit ${MAX_NESTING}`)
  })
})
