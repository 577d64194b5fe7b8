// ESLint flat config. Two jobs: keep the layers of DESIGN.md one-way
// (ui → store → sandbox → core, cli on top), and catch promises nobody awaits.
// `npm run lint` runs it with --max-warnings 0; `npm test` runs lint while it builds.
import { builtinModules } from 'node:module'
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'

/**
 * ui/ and store/ reach core only through its public surfaces (src/core/index.ts and each
 * folder's index.ts), never a file inside a folder, so each folder's internals can move freely.
 */
const enforceCoreSurface = true

/** A `no-restricted-imports` pattern: `regex` is matched against the import specifier. */
const layer = (from, to, regex, why = '') => ({ regex, message: `layers: ${from} must not import ${to}${why}` })

// Specifier segments that reach another layer. Relative imports inside a layer never contain
// these names as a path segment (core has no folder called ui, store, sandbox or cli).
const ui = (from) => layer(from, 'ui', String.raw`(^|/)ui(/|$)`)
const store = (from) => layer(from, 'store', String.raw`(^|/)store(/|$)`)
const sandbox = (from) => layer(from, 'sandbox', String.raw`((^|/)sandbox(/|$)|^toolstep$)`, ' (nor the `toolstep` authoring module)')
const cli = (from) => layer(from, 'cli', String.raw`(^|/)cli(/|$)`)
const nodeBuiltins = (from) => layer(from, 'Node builtins', String.raw`^(node:.*|${builtinModules.filter((m) => !m.startsWith('_')).join('|').replaceAll('/', '\\/')})(/.*)?$`, ' (core runs in the page, workers and Node)')
const domOnly = (from) => layer(from, 'DOM-only modules', String.raw`^(react|react-dom|monaco-editor|@monaco-editor/.*|@tanstack/react-virtual|zustand)(/.*)?$`, ' (core runs in the page, workers and Node)')
const coreDeep = (from) => layer(from, 'a file inside a core folder', String.raw`(^|/)core/[^/]+/`, ' (use src/core or the folder index)')

const coreRules = [ui('core'), store('core'), sandbox('core'), cli('core'), nodeBuiltins('core'), domOnly('core')]

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] })

export default defineConfig(
  { ignores: ['dist/**', 'dist-cli/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'coverage/**', 'public/**', '.export-runs/**', '**/*.js'] },
  {
    files: ['**/*.{ts,tsx}'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  // Layer rules. A file matches one block; later blocks win, so tests come after sources.
  { files: ['src/core/**/*.ts'], rules: { ...restrict(coreRules), '@typescript-eslint/no-explicit-any': 'error' } },
  // core/files reads and writes the file formats on top of the loop's types; the reverse edge was a cycle.
  { files: ['src/core/loop/**/*.ts'], rules: restrict([...coreRules, layer('core/loop', 'core/files', String.raw`(^|/)files(/|$)`, ' (files depends on loop)')]) },
  // Core tests run in Node and may read fixtures from disk; the other layer rules still hold.
  { files: ['src/core/**/*.test.ts'], rules: restrict([ui('core'), store('core'), sandbox('core'), cli('core'), domOnly('core')]) },
  { files: ['src/sandbox/**/*.ts'], rules: restrict([ui('sandbox'), store('sandbox'), cli('sandbox')]) },
  { files: ['src/store/**/*.ts'], rules: restrict([ui('store'), cli('store'), ...(enforceCoreSurface ? [coreDeep('store')] : [])]) },
  { files: ['src/ui/**/*.{ts,tsx}'], rules: restrict([cli('ui'), ...(enforceCoreSurface ? [coreDeep('ui')] : [])]) },
  // Test helpers live in src/test and never reach the app bundle: only tests (and scripts) import them.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/test/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex: String.raw`(^|/)test/`, message: 'layers: app code must not import src/test (test helpers are not part of the app)' }] }] },
  },
)
