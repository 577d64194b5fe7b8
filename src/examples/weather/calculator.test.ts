import { describe, expect, it } from 'vitest'
import { calculate, evaluateExpression, ExpressionError, MAX_EXPRESSION_LENGTH } from './tools'

function errorOf(expression: string): ExpressionError {
  try {
    evaluateExpression(expression)
  } catch (error) {
    if (error instanceof ExpressionError) return error
    throw error
  }
  throw new Error(`"${expression}" did not fail`)
}

describe('calculate: evaluateExpression', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3],
    ['100 / 10 / 5', 2],
    ['7 % 4 * 2', 6],
    ['2.5 * 4', 10],
    ['.5 + 1.', 1.5],
    ['-3 + 5', 2],
    ['-(2 + 3)', -5],
    ['--4', 4],
    ['+4 - -4', 8],
    ['3 * -2', -6],
    ['-2^2', -4],
    ['(-2)^2', 4],
    ['2^3^2', 512],
    ['2^-1', 0.5],
    ['2 ** 10', 1024],
    ['((((1))))', 1],
    ['  12\t+\n30 ', 42],
    ['(12 + 30) * 2', 84],
    ['-0', 0],
  ])('%s = %d', (expression, expected) => {
    expect(evaluateExpression(expression)).toBe(expected)
  })

  it.each([
    ['1 / 0', 'Division by zero at position 3'],
    ['5 % (2 - 2)', 'Modulo by zero at position 3'],
    ['', 'Expression is empty'],
    ['   ', 'Expression is empty'],
    ['2 +', 'Unexpected end of expression at position 4'],
    ['2 + * 3', 'Unexpected "*" at position 5'],
    ['(1 + 2', 'Expected ")" at position 7 to close "(" at position 1'],
    ['1 + 2)', 'Unexpected ")" at position 6'],
    ['1 2', 'Unexpected number 2 at position 3'],
    ['2 + x', 'Unexpected character "x" at position 5'],
    ['1.2.3', 'Malformed number "1.2.3" at position 1'],
    ['alert(1)', 'Unexpected character "a" at position 1'],
    ['10 ^ 400', 'gives a result that is not a finite number'],
    ['(-8) ^ 0.5', 'not a finite number'],
  ])('%j fails with a clear, positioned error', (expression, message) => {
    expect(errorOf(expression).message).toContain(message)
  })

  it('rejects very deep nesting with an error instead of overflowing the stack', () => {
    for (const expression of ['('.repeat(4000) + '1' + ')'.repeat(4000), '-'.repeat(9000) + '1', Array(3000).fill('2').join('^')]) {
      expect(errorOf(expression).message).toMatch(/nested too deeply at position \d+/)
    }
  })

  it('rejects overlong input, and evaluates long flat input without recursion trouble', () => {
    expect(errorOf('1+'.repeat(MAX_EXPRESSION_LENGTH)).message).toContain('Expression is too long')
    expect(evaluateExpression(Array(4000).fill('1').join('+'))).toBe(4000)
  })

  it('the tool returns the expression and a rounded result', async () => {
    expect(await calculate.execute({ expression: '0.1 + 0.2' }, { toolCallId: 'c1' })).toEqual({ expression: '0.1 + 0.2', result: 0.3 })
  })
})
