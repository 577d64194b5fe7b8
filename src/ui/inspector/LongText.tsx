import { useVirtualizer } from '@tanstack/react-virtual'
import { useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { rowStarts, WINDOWED_CHARS } from './raw-pieces'

/**
 * A text block (an answer, a message's content, a parse's text) drawn whole up to
 * `WINDOWED_CHARS` characters. A longer one (a model's 10 MB answer) is drawn windowed: cut in
 * rows of at most `ROW_CHARS`, only the rows in view are in the page, so laying out the page
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

function WindowedText({ text, className, testId, marks }: { text: string; className: string; testId?: string; marks: Record<string, string> }) {
  const { t } = useTranslation()
  const rows = useMemo(() => rowStarts(text), [text])
  const parentRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: (i) => 18 * Math.max(1, Math.ceil(((i + 1 < rows.length ? rows[i + 1]! : text.length) - rows[i]!) / 90)),
    overscan: 8,
    initialRect: { width: 600, height: 320 },
  })
  return (
    <div>
      <p className="mb-0.5 text-xs text-slate-500">{t('longText.windowed', { chars: text.length.toLocaleString() })}</p>
      <div data-testid={testId} data-windowed="true" ref={parentRef} className={`max-h-80 overflow-auto ${className}`} {...marks}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
          {virtualizer.getVirtualItems().map((item) => (
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
