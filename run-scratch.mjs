import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { readFileSync } from 'node:fs'
const m = await newQuickJSWASMModuleFromVariant(variant)
for (let k = 0; k < 3; k++) {
const ctx = m.newContext()
const r = ctx.evalCode(readFileSync(process.argv[2], 'utf8'))
if (r.error) console.log(ctx.dump(r.error)); else r.value.dispose()
console.log(ctx.dump(ctx.getProp(ctx.global, 'result')))
ctx.dispose()
}
