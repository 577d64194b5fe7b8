/**
 * What the toolbar's row shows at a given width, in rem (CSS px over the root font size, so a
 * larger text size compacts the row as a narrower window does). The teaching controls
 * (`lessons-toggle`, `presenter-toggle`, `font-size`, `share-link`) and the language switch are in
 * the row at every width; only their form changes.
 *
 * Reference widths: 1920 px at 100 % is 120 rem; 1440 px 90 rem; 1280 px 80 rem; 1280 px at
 * 150 % (zoom or text size) 53.3 rem; 1280 px at 200 % 40 rem.
 */
export interface ToolbarFit {
  /** The teaching buttons show their names beside their icons, and the text size its label. */
  labelled: boolean
  /** Max steps is in the row (else in More). */
  wide: boolean
  /** The product name is shown. */
  named: boolean
  /** The phase trail (decide → parse → …) is shown beside the name: only when the pickers have room for their whole text too. */
  trail: boolean
  /** The pickers' labels are hidden (named by `aria-label`), Back and Reset show their symbols, More and Export are short. */
  compact: boolean
  /** The row never wraps: the pickers give up width instead (to 6 rem, the full text on hover). */
  oneRow: boolean
}

/** The row's form for `room` rem of width. */
export function toolbarFit(room: number): ToolbarFit {
  return {
    labelled: room >= 104,
    named: room >= 96,
    trail: room >= 140,
    wide: room >= 86,
    compact: room < 68,
    // Below this the controls cannot shrink enough: the row wraps rather than overlap.
    oneRow: room >= 52,
  }
}
