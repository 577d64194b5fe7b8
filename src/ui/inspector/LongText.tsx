import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useMeasuredRows } from '../timeline/use-measured-rows'
import { NO_HEIGHTS, NO_ROWS, WINDOWED_CHARS } from './raw-pieces'
import { useTextRows } from './text-layout'

/**
 * A text block (an answer, a message's content, a parse's text) drawn whole up to
 * `WINDOWED_CHARS` characters. A longer one (a model's 10 MB answer) is drawn windowed: cut in
 * rows of whole lines (at most `ROW_LINES`) or of `ROW_CHARS` of a longer line, only the rows in view are in the page, so laying out the page
 * never measures megabytes of text. `as` and `className` style the block in both modes;
 * `testId` names it in both, with `data-windowed="true"` when windowed; `content` marks it as text
 * the user or the model wrote (`data-content`).
 */
export function LongText({ text, as: Block = 'pre', className = '', testId, content = false }: { text: string; as?: 'pre' | 'p' | 'div'; className?: string; testId?: string; content?: boolean }) {
  // `content` marks text the user or the model wrote (`data-content`), which the page does not translate.
  const marks: Record<string, string> = content ? { 'data-content': '' } : {}
  if (text.length <= WINDOWED_CHARS) {
    return (
      <Block data-testid={testId} className={className} {...marks}>
        {text}
      </Block>
    )
  }
  return <WindowedText text={text} className={className} marks={marks} {...(testId ? { testId } : {})} />
}

/** A row of a text is known by its index: the rows of one text never move. */
const rowKey = (index: number) => index

function WindowedText({ text, className, testId, marks }: { text: string; className: string; testId?: string; marks: Record<string, string> }) {
  const { t } = useTranslation()
  // Rows and offsets in typed arrays, made in the task after the first draw (see text-layout.ts):
  // 10 MB of short lines is hundreds of thousands of rows.
  const layout = useTextRows(text)
  const rows = layout?.starts ?? NO_ROWS
  const parentRef = useRef<HTMLDivElement>(null)
  const virtualizer = useMeasuredRows(parentRef, {
    count: rows.length,
    estimate: layout?.heights ?? NO_HEIGHTS,
    keyOf: rowKey,
    scope: rows,
    overscan: 8,
    fallbackHeight: 320,
  })
  return (
    <div>
      <p className="mb-0.5 text-xs text-slate-500">{t('longText.windowed', { chars: text.length.toLocaleString() })}</p>
      <div data-testid={testId} data-windowed="true" ref={parentRef} className={`max-h-80 overflow-auto ${className}`} aria-busy={layout ? undefined : true} {...marks}>
        {layout ? null : <span className="italic text-slate-400">{t('rawOutput.layingOut')}</span>}
        <div style={{ height: virtualizer.totalSize, position: 'relative', width: '100%' }}>
          {virtualizer.rows.map((item) => (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
            >
              {text.slice(rows[item.index]!, item.index + 1 < rows.length ? rows[item.index + 1]! : text.length)}
            </div>
          ))}
        </div>
      </div>
    </div>
  )
}

/** At most `max` characters of `text`, with an ellipsis when cut (a one-line preview or a hover title). */
export function preview(text: string, max = 2000): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`
}
