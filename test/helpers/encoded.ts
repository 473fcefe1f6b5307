// Compressed robots.txt bodies, whole and cut mid-stream, for the strict-decoding tests of the fetch
// paths (fetch.test.ts: the platform fetch; crawlee.test.ts: the undici package behind a proxy).
// A cut body is sent with complete chunked framing (the terminating zero-length chunk arrives), so
// only the encoded stream itself shows that it stops short.

import type http from 'node:http'
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import type { Handler } from './server.js'

/** The whole file: its last rule is what a cut body loses. */
export const ENCODED_RULES = 'User-agent: *\nAllow: /\n' + '# filler so every cut lands inside the stream\n'.repeat(200) + 'Disallow: /private\n'

/** Content-Encoding -> the whole encoded body ("deflate" both zlib-wrapped and raw, as servers send it). */
export const ENCODED: ReadonlyArray<{ name: string; encoding: string; bytes: Buffer }> = [
  { name: 'gzip', encoding: 'gzip', bytes: gzipSync(ENCODED_RULES) },
  { name: 'deflate', encoding: 'deflate', bytes: deflateSync(ENCODED_RULES) },
  { name: 'raw deflate', encoding: 'deflate', bytes: deflateRawSync(ENCODED_RULES) },
  { name: 'br', encoding: 'br', bytes: brotliCompressSync(ENCODED_RULES) },
]

/** Cut points: a few bytes in, half way, before the trailer (gzip's CRC and length), the last byte. */
const CUTS: ReadonlyArray<{ name: string; keep: (length: number) => number }> = [
  { name: 'first 10 bytes', keep: () => 10 },
  { name: 'half', keep: (n) => n >> 1 },
  { name: 'all but 8 bytes', keep: (n) => n - 8 },
  { name: 'all but the last byte', keep: (n) => n - 1 },
]

/** Every encoding that undici and Bun decode, cut at every cut point: 12 cases. */
export const CUT_BODIES = ENCODED.filter((e) => e.name !== 'raw deflate').flatMap((e) =>
  CUTS.map((c) => ({ name: `${e.name}, ${c.name}`, encoding: e.encoding, bytes: e.bytes.subarray(0, c.keep(e.bytes.length)) })),
)

/** Serves `bytes` as a chunked 200 body with `encoding`, whatever was asked (Accept-Encoding ignored). */
export function encodedReply(encoding: string, bytes: Uint8Array): Handler {
  return (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoding, 'transfer-encoding': 'chunked' })
    res.end(bytes)
  }
}
