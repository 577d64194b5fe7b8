import { useEffect, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

const FOCUSABLE = 'button:not([disabled]), select:not([disabled]), input:not([disabled]):not([type="hidden"]), [tabindex]:not([tabindex="-1"])'

/**
 * The toolbar's *More* menu: the less-used controls, in a popover (the browser's Popover API:
 * top layer, so nothing clips it; a click outside or Esc closes it and gives focus back to the
 * button). Opening it focuses its first control; ↑ ↓ Home End move between its controls.
 */
export function MoreMenu({ children, short = false }: { children: ReactNode; short?: boolean }) {
  const { t } = useTranslation()
  const button = useRef<HTMLButtonElement>(null)
  const panel = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const element = panel.current
    if (!element) return
    // Placed under the button, right-aligned with it.
    const place = (event: Event) => {
      const toggle = event as ToggleEvent
      if (toggle.newState !== 'open' || !button.current) return
      const box = button.current.getBoundingClientRect()
      element.style.top = `${box.bottom + 4}px`
      element.style.right = `${Math.max(4, document.documentElement.clientWidth - box.right)}px`
    }
    const focusFirst = (event: Event) => {
      if ((event as ToggleEvent).newState === 'open') element.querySelector<HTMLElement>(FOCUSABLE)?.focus()
    }
    element.addEventListener('beforetoggle', place)
    element.addEventListener('toggle', focusFirst)
    return () => {
      element.removeEventListener('beforetoggle', place)
      element.removeEventListener('toggle', focusFirst)
    }
  }, [])

  function onKeyDown(event: React.KeyboardEvent) {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return
    // A select uses the arrows for its own options.
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return
    const items = [...(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])]
    if (items.length === 0) return
    event.preventDefault()
    const at = items.indexOf(document.activeElement as HTMLElement)
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? items.length - 1 : (at + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length
    items[next]?.focus()
  }

  return (
    <>
      <button
        ref={button}
        data-testid="toolbar-more"
        popoverTarget="toolbar-more-menu"
        aria-haspopup="true"
        aria-controls="toolbar-more-menu"
        title={t('workbench.moreHint')}
        aria-label={t('workbench.more')}
        className="inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-md border border-slate-600 bg-slate-800 px-2.5 py-1 text-sm font-medium text-slate-100 shadow-sm hover:bg-slate-700"
      >
        {/* Short (a narrow row): the ellipsis alone, named by aria-label and on hover. */}
        {short ? '⋯' : `${t('workbench.more')} ▾`}
      </button>
      <div
        ref={panel}
        id="toolbar-more-menu"
        data-testid="toolbar-more-menu"
        popover="auto"
        role="group"
        aria-label={t('workbench.more')}
        onKeyDown={onKeyDown}
        // `inset: auto` undoes the popover's centring; top and right are set when it opens. Overflow
        // stays visible: a refused value's message may reach past the menu's edge.
        className="fixed inset-auto m-0 w-72 max-w-[calc(100vw-8px)] overflow-visible rounded-md border border-slate-200 bg-white p-1 text-sm text-slate-800 shadow-lg"
      >
        <div className="flex flex-col">{children}</div>
      </div>
    </>
  )
}

/** Closes the *More* menu (after an action that leaves it, such as opening a panel). */
export function closeMoreMenu(): void {
  const menu = document.getElementById('toolbar-more-menu')
  if (menu?.matches(':popover-open')) menu.hidePopover()
}

/** Class of a plain action in the *More* menu. */
export const menuItem = 'flex w-full items-center justify-between gap-2 rounded px-2 py-1.5 text-left hover:bg-slate-100 focus-visible:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40 aria-pressed:font-semibold'

/** A labelled control (a select or a number) as one row of the *More* menu. */
export function MenuField({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <label className="flex items-center justify-between gap-2 rounded px-2 py-1.5" title={hint}>
      <span>{label}</span>
      {children}
    </label>
  )
}
