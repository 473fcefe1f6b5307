// Per test file: the network guard is on, and no test file may end having tried to leave 127.0.0.1.
import { afterAll, expect } from 'vitest'
import { blockedAttempts } from './net-guard.mjs'

afterAll(() => {
  expect(blockedAttempts(), 'network access beyond 127.0.0.1').toEqual([])
})
