import { useEffect, useRef } from 'preact/hooks';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';

// only the parts these charts draw, so the bundle carries no other chart type
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export interface Series {
  label: string;
  color: string;
  values: number[];
}

/**
 * Stacked bars (Chart.js on a canvas). A canvas says nothing to a screen reader, so it
 * carries a summary as its accessible name; the page puts the full numbers in a table
 * beside it.
 */
export function BarChart({
  id,
  labels,
  series,
  horizontal = false,
  summary,
}: {
  id: string;
  labels: string[];
  series: Series[];
  horizontal?: boolean;
  summary: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<'bar'> | undefined>(undefined);

  useEffect(() => {
    chart.current = new Chart(canvas.current!, {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        maintainAspectRatio: false,
        animation: false,
        scales: {
          // requests are whole numbers: no 0.5 ticks on the value axis
          x: { stacked: true, ticks: { color: '#1f2328', precision: 0 } },
          y: { stacked: true, ticks: { color: '#1f2328', precision: 0 } },
        },
        plugins: { legend: { labels: { color: '#1f2328' } } },
      },
    });
    return () => chart.current?.destroy();
  }, [horizontal]);

  useEffect(() => {
    const c = chart.current!;
    c.data.labels = labels;
    c.data.datasets = series.map((s) => ({ label: s.label, data: s.values, backgroundColor: s.color }));
    c.update();
  }, [labels, series]);

  // horizontal charts grow with their rows, so long endpoint names stay readable
  const height = horizontal ? Math.max(160, 60 + labels.length * 26) : 260;
  return (
    <div class="chart" style={{ height: `${height}px` }}>
      <canvas id={id} ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}
