/**
 * The row layout of a long text for a windowed view (see `textRows`), made in a task after the
 * one that first draws the text: cutting 15 MB into rows, then placing them, added tens of ms
 * each to the task that drew a big turn. The last few texts laid out are kept, so a view drawn
 * again (a card scrolled out and back, the inspector and a card of the same turn) has its rows
 * at once.
 */
import { useEffect, useState } from 'react'
import { nextTask } from '../../core/loop'
import { textRows, type TextRows } from './raw-pieces'

/** Texts laid out last, newest first. */
const recent: { text: string; rows: TextRows }[] = []
const KEEP = 4

function laidOut(text: string): TextRows | undefined {
  return recent.find((entry) => entry.text === text)?.rows
}

function layOut(text: string): TextRows {
  const known = laidOut(text)
  if (known) return known
  const rows = textRows(text)
  recent.unshift({ text, rows })
  recent.length = Math.min(recent.length, KEEP)
  return rows
}

/** `text`'s rows, or null until the task after the first draw has made them (then the view draws again). */
export function useTextRows(text: string): TextRows | null {
  const [made, setMade] = useState<{ text: string; rows: TextRows } | null>(null)
  const ready = made?.text === text ? made.rows : (laidOut(text) ?? null)
  useEffect(() => {
    if (ready) return
    let live = true
    void nextTask().then(() => {
      if (live) setMade({ text, rows: layOut(text) })
    })
    return () => {
      live = false
    }
  }, [text, ready])
  return ready
}
