// Entry for Node (ESM and CommonJS) and bundlers: src/engine/wasm.ts's .wasm import is built as embedded
// bytes, instantiated synchronously on first use: no extra file, no top-level await.

export * from './public.js'
export { redisStorage, type RedisStorageOptions } from './integrations/redis.js'
