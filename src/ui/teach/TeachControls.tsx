import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { writeWorkspace } from '../../core/files'
import { download } from '../download'
import { usePlayground } from '../playground-context'
import { MAX_LINK_CHARS, encodeShare, shareUrl } from './share-link'
import { useTeach, useTeachStore } from './teach-context'
import { FONT_SIZE_MAX, FONT_SIZE_MIN } from './teach-store'
import { closeMoreMenu, menuItem } from '../layout/MoreMenu'
import { restorePutAside, usePutAside } from '../example-switch'
import { translate } from '../i18n/text'
import { LessonsIcon, LinkIcon, PresenterIcon, TextSizeIcon } from '../layout/icons'

const SIZES = [100, 110, 125, 150, 175, 200].filter((n) => n >= FONT_SIZE_MIN && n <= FONT_SIZE_MAX)

type ShareState = { url: string; copied: boolean } | { tooBig: number } | null

const rowButton =
  'inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-md border px-2 py-1 text-sm font-medium shadow-sm transition border-slate-600 bg-slate-800 text-slate-100 hover:bg-slate-700 aria-pressed:border-amber-400 aria-pressed:bg-amber-500 aria-pressed:text-slate-900'

/**
 * The teaching controls in the toolbar's row: Lessons, presenter mode, the text size and a share
 * link. `labelled` shows each button's name beside its icon (a wide row); otherwise the buttons
 * are icons, named by `aria-label` and on hover; `compact` (a narrow row) drops the text size's icon
 * too, its select showing the size itself. The share link's answer opens in a popover under
 * its button (top layer, so the row never clips it).
 */
export function TeachControls({ labelled, compact = false }: { labelled: boolean; compact?: boolean }) {
  const { t } = useTranslation()
  const pg = usePlayground()
  const teach = useTeachStore()
  const panelOpen = useTeach((s) => s.panelOpen)
  const presenter = useTeach((s) => s.presenter)
  const fontSize = useTeach((s) => s.fontSize)
  const [share, setShare] = useState<ShareState>(null)
  const shareButton = useRef<HTMLButtonElement>(null)
  const sharePanel = useRef<HTMLDivElement>(null)

  // Shown once the link is made (and on every later click); placed under its button.
  useEffect(() => {
    const panel = sharePanel.current
    const anchor = shareButton.current
    if (!share || !panel || !anchor) return
    const box = anchor.getBoundingClientRect()
    panel.style.top = `${box.bottom + 4}px`
    panel.style.right = `${Math.max(4, document.documentElement.clientWidth - box.right)}px`
    if (!panel.matches(':popover-open')) panel.showPopover()
    // The link is selected, ready for Ctrl+C when the clipboard refused it.
    panel.querySelector<HTMLInputElement>('[data-testid="share-url"]')?.select()
  }, [share])

  async function makeLink() {
    const fragment = await encodeShare({ workspace: pg.currentWorkspace(), ...(teach.getState().lessonId ? { lessonId: teach.getState().lessonId as string } : {}) })
    const url = shareUrl(window.location, fragment)
    if (url.length > MAX_LINK_CHARS) {
      setShare({ tooBig: url.length })
      return
    }
    let copied = false
    try {
      await navigator.clipboard.writeText(url)
      copied = true
    } catch {
      // No clipboard permission (or an insecure context): the link is shown to copy by hand.
    }
    setShare({ url, copied })
  }

  function closeShare() {
    sharePanel.current?.hidePopover()
    shareButton.current?.focus()
  }

  const name = (text: string) => (labelled ? <span>{text}</span> : null)

  return (
    <div className="flex shrink-0 items-center gap-1">
      <button data-testid="lessons-toggle" aria-pressed={panelOpen} aria-label={t('lessonsPanel.open')} title={t('toolbarRow.lessonsHint')} className={rowButton} onClick={() => teach.getState().setPanelOpen(!panelOpen)}>
        <LessonsIcon />
        {name(t('lessonsPanel.open'))}
      </button>
      <button data-testid="presenter-toggle" aria-pressed={presenter} aria-label={t('presenter.toggle')} title={t('presenter.on')} className={rowButton} onClick={() => teach.getState().setPresenter(!presenter)}>
        <PresenterIcon />
        {name(t('presenter.toggle'))}
      </button>
      <label className="flex shrink-0 items-center gap-1 text-sm text-slate-300" title={t('toolbarRow.fontSizeHint')}>
        {!compact && <TextSizeIcon />}
        <span className={labelled ? 'whitespace-nowrap text-xs' : 'sr-only'}>{t('presenter.fontSize')}</span>
        <select
          data-testid="font-size"
          aria-label={t('presenter.fontSize')}
          value={SIZES.includes(fontSize) ? fontSize : ''}
          onChange={(e) => teach.getState().setFontSize(Number(e.target.value))}
          className="shrink-0 rounded border border-slate-600 bg-slate-800 px-0.5 py-1 text-sm text-white"
        >
          {!SIZES.includes(fontSize) && <option value="">{fontSize}%</option>}
          {SIZES.map((size) => (
            <option key={size} value={size}>
              {size}%
            </option>
          ))}
        </select>
      </label>
      <button ref={shareButton} data-testid="share-link" aria-label={t('share.button')} title={t('toolbarRow.shareHint')} aria-controls="share-panel" className={rowButton} onClick={() => void makeLink()}>
        <LinkIcon />
        {name(t('share.button'))}
      </button>
      <div
        ref={sharePanel}
        id="share-panel"
        data-testid="share-panel"
        popover="auto"
        role="dialog"
        aria-label={t('share.urlLabel')}
        // `inset: auto` undoes the popover's centring; top and right are set when it opens.
        className="fixed inset-auto m-0 w-[32rem] max-w-[calc(100vw-8px)] rounded-md border border-slate-200 bg-white p-2 text-sm text-slate-800 shadow-lg"
      >
        {share && (
          <div role="status">
            <div className="mb-1 flex items-start justify-between gap-2">
              <span>{'tooBig' in share ? t('share.tooBig', { chars: share.tooBig, max: MAX_LINK_CHARS }) : share.copied ? t('share.copied') : t('share.copyFailed')}</span>
              <button aria-label={t('common.close')} title={t('common.close')} className="text-slate-500" onClick={closeShare}>
                ✕
              </button>
            </div>
            {'tooBig' in share ? (
              <button data-testid="share-export" className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50" onClick={() => download('toolstep-workspace.json', writeWorkspace(pg.currentWorkspace()))}>
                {t('common.export')}
              </button>
            ) : (
              <input data-testid="share-url" aria-label={t('share.urlLabel')} readOnly value={share.url} onFocus={(e) => e.currentTarget.select()} className="w-full rounded border border-slate-300 px-1 py-0.5 font-mono text-xs" />
            )}
          </div>
        )}
      </div>
    </div>
  )
}

/** Presenter mode's item of the toolbar's More menu: the editors folded away or back. */
export function PresenterMenuItems() {
  const { t } = useTranslation()
  const teach = useTeachStore()
  const presenter = useTeach((s) => s.presenter)
  const editorsHidden = useTeach((s) => s.editorsHidden)
  if (!presenter) return null
  return (
    <button data-testid="editors-toggle" aria-pressed={!editorsHidden} className={menuItem} onClick={() => teach.getState().setEditorsHidden(!editorsHidden)}>
      {t('presenter.editors')} <span aria-hidden className={!editorsHidden ? 'text-amber-600' : 'invisible'}>✓</span>
    </button>
  )
}

/**
 * The More menu's *Restore my previous work*: while edited work that an example, a lesson or a
 * share link replaced is put aside (kept across reloads), it brings that work back.
 */
export function RestoreWorkMenuItem() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const teach = useTeachStore()
  const aside = usePutAside((s) => s.putAside)
  if (!aside) return null
  return (
    <button
      data-testid="restore-work"
      className={menuItem}
      title={t('share.restoreHint', { title: translate(t, aside.title) })}
      onClick={() => {
        closeMoreMenu()
        if (restorePutAside(pg)) teach.getState().setFromLink(false)
      }}
    >
      {t('share.restoreMine')}
    </button>
  )
}
