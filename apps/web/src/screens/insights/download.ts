import { downloadBlob } from '../../components/export/csv';
import type { ECharts } from './echarts';

/**
 * The chart as a PNG file: its title and range written above the drawing (a file on its own says what
 * it shows), at twice the screen's pixels, on white.
 */
export function downloadChartPng(chart: ECharts, fileName: string, title: string, subtitle: string): void {
  const scale = 2;
  const image = new Image();
  image.onload = () => {
    const head = 40 * scale;
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height + head;
    const g = canvas.getContext('2d');
    if (!g) return;
    g.fillStyle = '#fff';
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = '#212529';
    g.font = `600 ${13 * scale}px 'Inter Variable', Inter, sans-serif`;
    g.fillText(title, 10 * scale, 17 * scale);
    g.fillStyle = '#868e96';
    g.font = `${11 * scale}px 'Inter Variable', Inter, sans-serif`;
    g.fillText(subtitle, 10 * scale, 33 * scale);
    g.drawImage(image, 0, head);
    canvas.toBlob((blob) => blob && downloadBlob(fileName, blob), 'image/png');
  };
  image.src = chart.getDataURL({ type: 'png', pixelRatio: scale, backgroundColor: '#fff' });
}
