// Checks of client-supplied text that is stored and read back by Redis scripts (cjson) and SCIM.

/** The longest segment or identity key. */
export const MAX_KEY_LENGTH = 250

/** Text as Redis scripts can read it back: a string of well-formed UTF-16 (no lone surrogates), bounded. */
export function isText(value: unknown, maxLength: number): value is string {
  return (
    typeof value === 'string' &&
    value.length <= maxLength &&
    !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)
  )
}

/** A segment or identity key: 1 to 250 characters of well-formed text without control characters. */
export function isKeyText(value: unknown): value is string {
  return isText(value, MAX_KEY_LENGTH) && value.length > 0 && !/[\u0000-\u001f\u007f]/.test(value)
}
