// Charts over time, drawn by uPlot (a kept library: about 20 KB gzipped, canvas, no inline styles or scripts, so it
// lives under the console's Content-Security-Policy): axes with units, a tooltip that follows the pointer, the
// design's colours in both themes, the width of its container (a phone too), and a text alternative: a summary
// sentence and every figure in a table a person or a screen reader can open.
import { useEffect, useRef, useState } from 'preact/hooks'
import uPlot from 'uplot'

export interface ChartSeries {
  readonly label: string
  /** One value per x; null where there is none. */
  readonly values: readonly (number | null)[]
  /** A colour token of the design (style.css): series-0..3, chart-ok, chart-bad. */
  readonly color: string
  readonly kind?: 'line' | 'bars'
  /** An interval around each value, drawn as a band and read as "value (lower to upper)". */
  readonly interval?: { readonly lower: readonly (number | null)[]; readonly upper: readonly (number | null)[] }
}

export interface ChartProps {
  /** Times of the points, in seconds since the epoch. */
  readonly x: readonly number[]
  readonly series: readonly ChartSeries[]
  /** The y axis's label, with its unit. */
  readonly yLabel: string
  /** The y axis's fixed range (values beyond it are clipped); by default it fits the data, from 0 for counts. */
  readonly yRange?: readonly [number, number]
  /** Whole numbers only (counts): no tick at 0.5. */
  readonly integer?: boolean
  /** How a value reads (axis ticks, tooltip, table). */
  readonly format: (v: number) => string
  /** The text alternative: what the chart says, in a sentence shown under it. */
  readonly summary: string
  readonly testId?: string
  readonly height?: number
}

/** Tick steps of a count axis: 1, 2, 5, 10, 20, 50, … */
const INTEGER_STEPS = Array.from({ length: 30 }, (_, i) => [1, 2, 5][i % 3]! * 10 ** Math.floor(i / 3))

const token = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(`--${name}`).trim()

/** A time as a person reads it: the date only when it is not today. */
export function timeText(seconds: number): string {
  const d = new Date(seconds * 1000)
  const today = new Date().toDateString() === d.toDateString()
  return d.toLocaleString(undefined, {
    ...(today ? {} : { month: 'short', day: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
  })
}

/** A series' value at a point as text, with its interval when it has one. */
function valueText(props: ChartProps, s: ChartSeries, i: number): string {
  const text = (v: number | null | undefined, none: string) => (v === null || v === undefined ? none : props.format(v))
  const v = text(s.values[i], '–')
  return s.interval ? `${v} (${text(s.interval.lower[i], '−∞')} to ${text(s.interval.upper[i], '∞')})` : v
}

/** A box that follows the pointer with the time and each series' value there. */
function tooltip(props: ChartProps): uPlot.Plugin {
  let box: HTMLDivElement
  return {
    hooks: {
      init: (u) => {
        box = document.createElement('div')
        box.className = 'chart-tip'
        box.setAttribute('aria-hidden', 'true')
        box.hidden = true
        u.over.appendChild(box)
      },
      setCursor: (u) => {
        const i = u.cursor.idx
        if (i === null || i === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
          box.hidden = true
          return
        }
        box.replaceChildren()
        const head = document.createElement('strong')
        head.textContent = timeText(props.x[i]!)
        box.appendChild(head)
        for (const s of props.series) {
          const line = document.createElement('div')
          line.textContent = `${s.label}: ${valueText(props, s, i)}`
          box.appendChild(line)
        }
        box.hidden = false
        const right = u.cursor.left > u.over.clientWidth / 2
        box.style.left = right ? '' : `${u.cursor.left + 12}px`
        box.style.right = right ? `${u.over.clientWidth - u.cursor.left + 12}px` : ''
        box.style.top = `${Math.max(0, (u.cursor.top ?? 0) - 10)}px`
      },
    },
  }
}

/** The plotted columns in order: each series, then its interval's upper and lower edges. */
function columns(props: ChartProps) {
  return props.series.flatMap((s, owner) => [
    { owner, part: 'value' as const, values: s.values },
    ...(s.interval
      ? [
          { owner, part: 'upper' as const, values: s.interval.upper },
          { owner, part: 'lower' as const, values: s.interval.lower },
        ]
      : []),
  ])
}

function options(props: ChartProps, width: number): uPlot.Options {
  const fg = token('muted')
  const grid = token('border')
  const bars = props.series.filter((s) => s.kind === 'bars').length
  let bar = 0
  return {
    width,
    height: props.height ?? 200,
    legend: { show: false },
    cursor: { y: false, points: { show: true } },
    scales: {
      // Bars are drawn centred on their time: half a step more on each side, so the first and last are whole.
      x: {
        time: true,
        range: (_u, min, max) => {
          const half = bars > 0 && props.x.length > 1 ? (props.x[1]! - props.x[0]!) / 2 : 0
          return [min - half, max + half]
        },
      },
      y: props.yRange
        ? { range: [props.yRange[0], props.yRange[1]] }
        : { range: (_u, min, max) => [Math.min(0, min), Math.max(props.integer ? 1 : 0, max)] },
    },
    axes: [
      { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } },
      {
        stroke: fg,
        grid: { stroke: grid, width: 1 },
        ticks: { stroke: grid },
        label: props.yLabel,
        size: 60,
        ...(props.integer ? { incrs: INTEGER_STEPS } : {}),
        values: (_u, ticks) => ticks.map((v) => props.format(v)),
      },
    ],
    series: [
      {},
      ...props.series.flatMap((s): uPlot.Series[] => {
        const colour = token(s.color)
        if (s.kind === 'bars') {
          const k = bar++
          return [
            {
              label: s.label,
              stroke: colour,
              fill: colour,
              width: 0,
              points: { show: false },
              paths: uPlot.paths.bars!({ size: [0.8 / bars, 40], align: bars === 1 ? 0 : k === 0 ? -1 : 1 }),
            },
          ]
        }
        const line: uPlot.Series = {
          label: s.label,
          stroke: colour,
          width: 2,
          points: { show: props.x.length < 40 },
          spanGaps: false,
        }
        const edge = (label: string): uPlot.Series => ({
          label,
          stroke: colour,
          width: 1,
          dash: [4, 4],
          points: { show: false },
        })
        return s.interval ? [line, edge(`${s.label} upper`), edge(`${s.label} lower`)] : [line]
      }),
    ],
    // Each interval's edges follow its line (data() lays them out the same way): the space between is filled.
    bands: props.series.flatMap((s, k) => {
      if (!s.interval) return []
      const at = columns(props).findIndex((c) => c.owner === k && c.part === 'upper') + 1
      return [{ series: [at, at + 1] as [number, number], fill: `${token(s.color)}33` }]
    }),
    plugins: [tooltip(props)],
  }
}

/** A chart of series over time, with its summary and its figures as text. */
export function TimeChart(props: ChartProps) {
  const host = useRef<HTMLDivElement>(null)
  // Drawn again when the system's theme changes (the canvas has no CSS colours of its own).
  const [theme, setTheme] = useState(0)
  useEffect(() => {
    const dark = matchMedia('(prefers-color-scheme: dark)')
    const changed = () => setTheme((n) => n + 1)
    dark.addEventListener('change', changed)
    return () => dark.removeEventListener('change', changed)
  }, [])
  // Drawn again only when what it shows changes (a view's every render would otherwise draw it anew).
  const drawn = JSON.stringify([props.x, props.series, props.yLabel, props.yRange, props.integer, props.height])
  useEffect(() => {
    const el = host.current
    if (!el) return
    const data = [props.x, ...columns(props).map((c) => c.values)] as uPlot.AlignedData
    const plot = new uPlot(options(props, Math.max(240, el.clientWidth)), data, el)
    const resized = new ResizeObserver(() => {
      const width = Math.max(240, el.clientWidth)
      if (width !== plot.width) plot.setSize({ width, height: plot.height })
    })
    resized.observe(el)
    return () => {
      resized.disconnect()
      plot.destroy()
    }
  }, [drawn, theme])
  return (
    <figure class="chart" data-testid={props.testId}>
      <div class="chart-legend" aria-hidden="true">
        {props.series.map((s) => (
          <span class={`key ${s.color}`}>{s.label}</span>
        ))}
      </div>
      <div class="chart-plot" ref={host} role="img" aria-label={props.summary} />
      <figcaption>{props.summary}</figcaption>
      <details class="chart-figures">
        <summary>Figures</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Time</th>
              {props.series.map((s) => (
                <th scope="col">{s.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.x.map((t, i) => (
              <tr>
                <td>{timeText(t)}</td>
                {props.series.map((s) => (
                  <td>{valueText(props, s, i)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
