// Keys and webhook addresses are stored by their SHA-256 in hex: the digest must stay exactly that,
// or every stored key and address stops matching (FIPS 180-2 test vectors; text hashed as UTF-8).
import { createHash } from 'node:crypto'
import { expect, it } from 'vitest'
import { hashKey, keyId } from '../../../../src/state/redis/tenancy.js'

it('is the hex SHA-256 of the key as UTF-8, and a key id is its first 16 digits', () => {
  expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  expect(hashKey('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  expect(hashKey('clé-😀')).toBe(createHash('sha256').update(Buffer.from('clé-😀', 'utf8')).digest('hex'))
  // A lone surrogate is hashed as U+FFFD, as createHash hashed it: keys stored before still match.
  expect(hashKey('k\ud800')).toBe(createHash('sha256').update('k\ud800').digest('hex'))
  expect(keyId(hashKey('abc'))).toBe('ba7816bf8f01cfea')
})
