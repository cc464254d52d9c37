// Secrets Sluice must be able to read back (HMAC keys of senders) are kept encrypted at rest with
// AES-256-GCM under a key from the settings (SLUICE_SECRETS_KEY). Several keys may be given: the
// first seals, any of them opens (each sealed value names its key), so the key itself can be rotated.
// The sealed form is "v1.<key id>.<base64 of iv, tag and ciphertext>".
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto'

interface Key {
  readonly id: string
  readonly bytes: Buffer
}

export class SecretsKeyMissing extends Error {
  override readonly name = 'SecretsKeyMissing'
}

export class SecretBox {
  private readonly keys: readonly Key[]

  /** keys: base64 (or hex) of 32 bytes each, the first one sealing. */
  constructor(keys: readonly string[]) {
    this.keys = keys.map((k) => {
      const bytes = /^[0-9a-f]{64}$/i.test(k) ? Buffer.from(k, 'hex') : Buffer.from(k, 'base64')
      if (bytes.length !== 32) throw new Error('a secrets key must be 32 bytes, in base64 or hex')
      return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 8), bytes }
    })
  }

  get available(): boolean {
    return this.keys.length > 0
  }

  seal(plain: string): string {
    const key = this.keys[0]
    if (!key) throw new SecretsKeyMissing('no secrets key is set (SLUICE_SECRETS_KEY)')
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', key.bytes, iv)
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return `v1.${key.id}.${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')}`
  }

  /** The secret, or undefined when no key of this process opens it (a key rotated away, a value altered). */
  open(sealed: string): string | undefined {
    const [version, id, body] = sealed.split('.')
    const key = this.keys.find((k) => k.id === id)
    if (version !== 'v1' || !key || !body) return undefined
    const raw = Buffer.from(body, 'base64')
    if (raw.length < 28) return undefined
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, raw.subarray(0, 12))
      decipher.setAuthTag(raw.subarray(12, 28))
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
    } catch {
      return undefined
    }
  }

  /**
   * A MAC of `data` for `purpose` (HMAC-SHA256 under a key derived from the sealing key for that purpose alone), as
   * base64url, prefixed by the key's id: links Sluice signs (an email's acknowledge link) are checked with any key.
   */
  mac(purpose: string, data: string): string {
    const key = this.keys[0]
    if (!key) throw new SecretsKeyMissing('no secrets key is set (SLUICE_SECRETS_KEY)')
    return `${key.id}${macOf(key, purpose, data)}`
  }

  /** Whether `mac` is this process's MAC of `data` for `purpose` (compared in constant time). */
  verifyMac(purpose: string, data: string, mac: string): boolean {
    const key = this.keys.find((k) => k.id === mac.slice(0, 8))
    if (!key) return false
    const expected = Buffer.from(macOf(key, purpose, data))
    const given = Buffer.from(mac.slice(8))
    return given.length === expected.length && timingSafeEqual(given, expected)
  }
}

function macOf(key: Key, purpose: string, data: string): string {
  const derived = Buffer.from(hkdfSync('sha256', key.bytes, Buffer.alloc(0), `sluice mac: ${purpose}`, 32))
  return createHmac('sha256', derived).update(data).digest('base64url')
}
