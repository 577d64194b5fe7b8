declare module 'virtual:toolstep-vm-runtime' {
  /** The runtime bundle evaluated inside the QuickJS VM (see `scripts/vm-bundle.ts`). */
  const source: string
  export default source
}
