/** The `toolstep` module's editor declarations, served by the Vite plugin in scripts/authoring-types.ts. */
declare module 'virtual:toolstep-types' {
  /** Declaration files with their `file:///node_modules/…` paths, `toolstep/index.d.ts` first. */
  const libs: readonly { path: string; content: string }[]
  export default libs
}
