// The SCIM error (RFC 7644 3.12) and the schema URNs of the messages and resources.

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group'
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error'
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const SEARCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest'

/** A SCIM error: HTTP status and scimType. */
export class ScimError extends Error {
  override readonly name = 'ScimError'
  constructor(
    readonly status: number,
    readonly scimType: string | undefined,
    detail: string,
  ) {
    super(detail)
  }
}
