import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'

export interface NumberFieldProps {
  value: number
  min: number
  max: number
  onChange(value: number): void
  testId?: string
  label?: string
  className?: string
  /** Which edge the refusal message lines up with (`right` for a field at the right of a menu). */
  errorAlign?: 'left' | 'right'
}

/**
 * A whole-number input that lets the user type freely: every keystroke is kept, only a valid
 * number in `[min, max]` is applied, an invalid one is marked and refused with the allowed range
 * shown under the field, and leaving the field restores the applied value. (Rejecting keystrokes would turn "10" typed over "5" into "50".)
 */
export function NumberField({ value, min, max, onChange, testId, label, className = '', errorAlign = 'left' }: NumberFieldProps) {
  const { t } = useTranslation()
  const [text, setText] = useState(String(value))
  useEffect(() => setText((current) => (Number(current) === value && current.trim() !== '' ? current : String(value))), [value])
  const parse = (raw: string) => {
    const n = Number(raw)
    return raw.trim() !== '' && Number.isInteger(n) && n >= min && n <= max ? n : undefined
  }
  const valid = parse(text) !== undefined
  return (
    <span className="relative inline-flex">
    <input
      data-testid={testId}
      aria-label={label}
      type="number"
      min={min}
      max={max}
      value={text}
      aria-invalid={!valid}
      title={valid ? undefined : t('numberField.range', { min, max })}
      onChange={(e) => {
        setText(e.target.value)
        const n = parse(e.target.value)
        if (n !== undefined && n !== value) onChange(n)
      }}
      onBlur={() => setText(String(value))}
      className={`${className} ${valid ? '' : 'border-red-500 ring-1 ring-red-400'}`}
    />
      {!valid && (
        // Said where the user is looking, not only in a tooltip: the value is refused, not reverted.
        <span
          role="alert"
          data-testid={testId ? `${testId}-error` : undefined}
          className={`absolute ${errorAlign === 'right' ? 'right-0 w-max max-w-64 whitespace-normal' : 'left-0 whitespace-nowrap'} top-full z-40 mt-1 rounded bg-red-700 px-2 py-0.5 text-xs font-medium text-white shadow`}
        >
          {text.trim() === '' ? t('numberField.enter', { min, max }) : t('numberField.refused', { text, min, max })}
        </span>
      )}
    </span>
  )
}
