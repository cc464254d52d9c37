// Pieces every view shows the same way.

/** A failed call's message, announced to screen readers; nothing when there is none. */
export function ErrorLine({ text }: { text: string | null }) {
  return text === null ? null : (
    <p role="alert" class="error">
      {text}
    </p>
  )
}

export type Tone = 'danger' | 'warn' | 'ok' | 'info' | 'neutral'

/** A status or severity as a word in a coloured pill (the word is always there: colour is never the only sign). */
export function Badge({ tone, children }: { tone: Tone; children: string }) {
  return <span class={`badge ${tone}`}>{children}</span>
}

const SEVERITY_TONES: Record<string, Tone> = {
  critical: 'danger',
  high: 'danger',
  error: 'danger',
  warning: 'warn',
  medium: 'warn',
  low: 'info',
  info: 'info',
}
const STATUS_TONES: Record<string, Tone> = {
  firing: 'danger',
  triggered: 'danger',
  suppressed: 'neutral',
  acknowledged: 'warn',
  resolved: 'ok',
}

export const Severity = ({ value }: { value: string }) => (
  <Badge tone={SEVERITY_TONES[value] ?? 'neutral'}>{value}</Badge>
)
export const Status = ({ value }: { value: string }) => <Badge tone={STATUS_TONES[value] ?? 'neutral'}>{value}</Badge>
