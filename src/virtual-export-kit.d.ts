/** Toolstep's code for exported loops, served by the Vite plugin in scripts/export-kit.ts. */
declare module 'virtual:toolstep-export-kit' {
  /** `kit`: script body for `new Function('require', kit)`; `parts`: the loop's source regions by name. */
  const bundle: { kit: string; parts: Record<string, string> }
  export default bundle
}
