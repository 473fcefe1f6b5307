// Entry for Cloudflare Workers (the `workerd` and `worker` export conditions): Workers forbid
// compiling wasm from bytes at run time, so src/engine/wasm.ts's .wasm import is built as an import of
// dist/robots.wasm, which wrangler uploads as a WebAssembly.Module beside the script.

export * from './public.js'
export { redisStorage, type RedisStorageOptions } from './integrations/redis.js'
