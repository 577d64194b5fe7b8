/**
 * Resizable panes on top of react-resizable-panels: each divider is a keyboard- and
 * pointer-draggable `separator` whose double-click collapses the pane it controls (or
 * restores it), and each group remembers its sizes in localStorage.
 */
import type { ReactNode, RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import { Group, Separator, useDefaultLayout, type PanelImperativeHandle } from 'react-resizable-panels'
import { paneStorage } from './pane-storage'

/** A group of panes whose sizes survive a reload, stored under `toolstep.<id>`. */
export function PaneGroup({ id, orientation = 'horizontal', children, className = '' }: { id: string; orientation?: 'horizontal' | 'vertical'; children: ReactNode; className?: string }) {
  const layout = useDefaultLayout({ id: `toolstep.${id}`, storage: paneStorage })
  return (
    <Group id={id} orientation={orientation} defaultLayout={layout.defaultLayout} onLayoutChanged={layout.onLayoutChanged} className={className}>
      {children}
    </Group>
  )
}

/** Collapses the pane, or restores it when it is collapsed. */
export function togglePane(pane: RefObject<PanelImperativeHandle | null>): void {
  const handle = pane.current
  if (!handle) return
  if (handle.isCollapsed()) handle.expand()
  else handle.collapse()
}

/**
 * The divider between two panes. Drag it (or focus it and use the arrow keys) to resize;
 * double-click it to collapse `pane` (the pane named by its `aria-controls`) or bring it back.
 */
export function PaneDivider({ pane, orientation = 'horizontal', label }: { pane: RefObject<PanelImperativeHandle | null>; orientation?: 'horizontal' | 'vertical'; label: string }) {
  const { t } = useTranslation()
  return (
    <Separator
      data-testid="pane-divider"
      aria-label={label}
      title={t('panes.dividerHint', { label })}
      disableDoubleClick
      onDoubleClick={(event) => {
        event.preventDefault()
        togglePane(pane)
      }}
      className={`group relative shrink-0 bg-slate-200 outline-none transition-colors hover:bg-sky-400 focus-visible:bg-sky-500 data-[separator=active]:bg-sky-500 ${
        orientation === 'horizontal' ? 'w-1' : 'h-1'
      }`}
    />
  )
}
