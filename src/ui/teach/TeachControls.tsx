import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { writeWorkspace } from '../../core/files'
import { download } from '../download'
import { usePlayground } from '../playground-context'
import { MAX_LINK_CHARS, encodeShare, shareUrl } from './share-link'
import { useTeach, useTeachStore } from './teach-context'
import { FONT_SIZE_MAX, FONT_SIZE_MIN } from './teach-store'
import { MenuField, closeMoreMenu, menuItem } from '../layout/MoreMenu'

const SIZES = [100, 110, 125, 150, 175, 200].filter((n) => n >= FONT_SIZE_MIN && n <= FONT_SIZE_MAX)

type ShareState = { url: string; copied: boolean } | { tooBig: number } | null

/** Teaching controls in the toolbar's More menu: the Lessons panel, presenter mode, text size and share links. */
export function TeachControls() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const teach = useTeachStore()
  const panelOpen = useTeach((s) => s.panelOpen)
  const presenter = useTeach((s) => s.presenter)
  const fontSize = useTeach((s) => s.fontSize)
  const editorsHidden = useTeach((s) => s.editorsHidden)
  const [share, setShare] = useState<ShareState>(null)

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

  const light = 'rounded border border-slate-300 bg-white px-1 py-0.5 text-sm text-slate-800'
  const check = (pressed: boolean) => <span aria-hidden className={pressed ? 'text-amber-600' : 'invisible'}>✓</span>

  // Items of the toolbar's More menu: the Lessons panel and presenter mode close the menu (the
  // page changes under it); the text size and a share link's answer are seen in it.
  return (
    <>
      <button data-testid="lessons-toggle" aria-pressed={panelOpen} className={menuItem} onClick={() => { teach.getState().setPanelOpen(!panelOpen); closeMoreMenu() }}>
        {t('lessonsPanel.open')} {check(panelOpen)}
      </button>
      <button data-testid="presenter-toggle" aria-pressed={presenter} className={menuItem} title={t('presenter.on')} onClick={() => { teach.getState().setPresenter(!presenter); closeMoreMenu() }}>
        {t('presenter.toggle')} {check(presenter)}
      </button>
      {presenter && (
        <button data-testid="editors-toggle" aria-pressed={!editorsHidden} className={menuItem} onClick={() => teach.getState().setEditorsHidden(!editorsHidden)}>
          {t('presenter.editors')} {check(!editorsHidden)}
        </button>
      )}
      <MenuField label={t('presenter.fontSize')}>
        <select
          data-testid="font-size"
          aria-label={t('presenter.fontSize')}
          title={t('presenter.fontSize')}
          value={SIZES.includes(fontSize) ? fontSize : ''}
          onChange={(e) => teach.getState().setFontSize(Number(e.target.value))}
          className={light}
        >
          {!SIZES.includes(fontSize) && <option value="">{fontSize} %</option>}
          {SIZES.map((size) => (
            <option key={size} value={size}>
              {size} %
            </option>
          ))}
        </select>
      </MenuField>
      <button data-testid="share-link" className={menuItem} onClick={() => void makeLink()}>
        {t('share.button')}
      </button>
      {share && (
        <div role="status" className="mx-1 mb-1 rounded-md border border-slate-200 bg-slate-50 p-2 text-sm text-slate-800">
          <div className="mb-1 flex items-start justify-between gap-2">
            <span>{'tooBig' in share ? t('share.tooBig', { chars: share.tooBig, max: MAX_LINK_CHARS }) : share.copied ? t('share.copied') : t('share.copyFailed')}</span>
            <button aria-label={t('common.close')} className="text-slate-500" onClick={() => setShare(null)}>✕</button>
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
    </>
  )
}
