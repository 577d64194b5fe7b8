/**
 * The few host globals core may use, declared for tsconfig.core.json (lib ES2023 only, no DOM,
 * no @types/node). Each exists with this shape in browsers, Web Workers and Node >= 20, so core
 * stays runnable everywhere; anything not listed here is a type error in core. The app and Node
 * programs exclude this file and take the full declarations from their own libs.
 */

/** HTML timers (also Node's global): runs `handler` once after `timeoutMs` ms. */
declare function setTimeout(handler: () => void, timeoutMs?: number): unknown
