import { useEffect, useRef } from 'preact/hooks'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

const compactNumber = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
const compact = (value: number) => compactNumber.format(value)

/**
 * A line (or bars) over block numbers, drawn by uPlot on a canvas and redrawn to the width of
 * its card. `label` names the series for screen readers and the legend.
 */
export function BlockChart({ blocks, values, label, bars = false }: { blocks: number[]; values: number[]; label: string; bars?: boolean }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current
    if (!element) return
    const color = getComputedStyle(element).getPropertyValue('--accent').trim() || '#3b6fd8'
    const ink = getComputedStyle(element).getPropertyValue('--muted').trim() || '#777'
    const axis = { stroke: ink, grid: { stroke: 'rgba(128,128,128,0.15)' }, ticks: { stroke: 'rgba(128,128,128,0.3)' } }
    const plot = new uPlot(
      {
        width: element.clientWidth || 300,
        height: 160,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false } },
        axes: [axis, { ...axis, size: 56, values: (_plot: uPlot, splits: number[]) => splits.map(compact) }],
        series: [
          { label: 'block' },
          { label, stroke: color, width: 2, fill: `${color}33`, ...(bars ? { paths: uPlot.paths.bars!({ size: [0.7, 20] }) } : {}) },
        ],
      },
      [blocks, values],
      element,
    )
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth || 300, height: 160 }))
    resize.observe(element)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [blocks, values, label, bars])
  return <div class="chart" ref={box} role="img" aria-label={`${label} per block, blocks ${blocks[0] ?? ''} to ${blocks.at(-1) ?? ''}`} />
}
