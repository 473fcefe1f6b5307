// `import x from '….wasm'`: the bytes as a base64 string in the Node/bundler build, a WebAssembly.Module in
// the workerd build (see scripts/build.mjs). src/engine/wasm.ts accepts either.
declare module '*.wasm' {
  const wasm: unknown
  export default wasm
}
