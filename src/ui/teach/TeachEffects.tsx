import { useEffect, useLayoutEffect } from 'react'
import { usePlayground } from '../playground-context'
import { useTeach } from './teach-context'

/** True when a key press belongs to a text field or an editor, not to the page. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.closest('.monaco-editor') !== null
}

/** True when Space belongs to a focused control (a button, a link, a menu's summary): it presses it. */
function pressing(event: KeyboardEvent): boolean {
  return event.key === ' ' && event.target instanceof HTMLElement && event.target.closest('button, a[href], summary, [role="button"]') !== null
}

/** True when a key press belongs to a modal dialog (the confirmation of a dangerous call): it does not step. */
function inDialog(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('[aria-modal="true"]') !== null
}

/**
 * Side effects of the teaching preferences: the text size applied to the root element (the UI is
 * sized in rem, so everything scales), and in presenter mode Space / → step and ← goes back.
 */
export function TeachEffects() {
  const pg = usePlayground()
  const fontSize = useTeach((s) => s.fontSize)
  const presenter = useTeach((s) => s.presenter)

  // Before paint and before other effects: lists sized in rem (the timeline) read the new size in theirs.
  useLayoutEffect(() => {
    document.documentElement.style.fontSize = fontSize === 100 ? '' : `${fontSize}%`
  }, [fontSize])

  useEffect(() => {
    if (!presenter) return
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey || pressing(event) || inDialog(event.target)) return
      // Just after choosing a text size, focus is still on its menu: ← / → step there too
      // (↑ / ↓ still change the size), and the menu lets go of the keyboard.
      const sizeMenu = event.target instanceof HTMLSelectElement && event.target.dataset['testid'] === 'font-size'
      if (sizeMenu && (event.key === 'ArrowRight' || event.key === 'ArrowLeft')) event.target.blur()
      else if (typing(event.target)) return
      if (event.key === ' ' || event.key === 'ArrowRight') {
        event.preventDefault()
        void pg.step()
      } else if (event.key === 'ArrowLeft') {
        event.preventDefault()
        pg.back()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [presenter, pg])
  return null
}
