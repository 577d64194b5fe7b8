/**
 * Line icons of the toolbar's compact buttons, drawn as inline SVG (no icon font, no emoji font:
 * they render the same on every system). Sized in em, so they follow the text size; decorative
 * only (`aria-hidden`): each button that shows one carries its name in `aria-label` and `title`.
 */
type IconProps = { className?: string }

function Icon({ className = '', children }: IconProps & { children: React.ReactNode }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" className={`h-[1.15em] w-[1.15em] shrink-0 ${className}`}>
      {children}
    </svg>
  )
}

/** An open book: the Lessons panel. */
export function LessonsIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M2 5.5C4.5 4 8 4 12 6c4-2 7.5-2 10-.5V19c-2.5-1.5-6-1.5-10 .5-4-2-7.5-2-10-.5z" />
      <path d="M12 6v13.5" />
    </Icon>
  )
}

/** A projection screen on a stand: presenter mode. */
export function PresenterIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M3 4h18" />
      <rect x="4" y="4" width="16" height="11" rx="1" />
      <path d="M12 15v3M8 21l4-3 4 3" />
    </Icon>
  )
}

/** Two chain links: a share link. */
export function LinkIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M10 14a4.5 4.5 0 0 0 6.4 0l3.2-3.2a4.5 4.5 0 0 0-6.4-6.4L11.8 5.8" />
      <path d="M14 10a4.5 4.5 0 0 0-6.4 0l-3.2 3.2a4.5 4.5 0 0 0 6.4 6.4l1.4-1.4" />
    </Icon>
  )
}

/** A large and a small letter A: the text size. */
export function TextSizeIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M2 19l5-14 5 14M4 14h6" />
      <path d="M14 19l3.5-9 3.5 9M15.2 16h4.6" />
    </Icon>
  )
}

/** A globe: the UI language. */
export function LanguageIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5-3.5-9s1-6.5 3.5-9z" />
    </Icon>
  )
}

/** An arrow down onto a tray: export (save a file). */
export function ExportIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M12 3v12M7 10l5 5 5-5" />
      <path d="M4 17v3h16v-3" />
    </Icon>
  )
}
