// Pieces every view shows the same way.

/** A failed call's message, announced to screen readers; nothing when there is none. */
export function ErrorLine({ text }: { text: string | null }) {
  return text === null ? null : (
    <p role="alert" class="error">
      {text}
    </p>
  )
}
