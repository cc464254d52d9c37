// Shared by the SCIM unit tests.
import { expect } from 'vitest'
import { ScimError } from '../../../../../src/admin/harness/scim/user.js'

/** The ScimError thrown by fn (fails the test when fn returns or throws something else). */
export function scimError(fn: () => unknown): ScimError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(ScimError)
    return err as ScimError
  }
  throw new Error('expected a ScimError, nothing was thrown')
}
