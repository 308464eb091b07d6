import { describe, expect, it } from 'vitest';
import type { ClientCurve } from '../shared/curves/curveStore';
import { buildChartOption, CHART, maxDotsFor, tooltipHtml } from './chartOption';

const call: ClientCurve = {
  key: 'F-CALL-last',
  label: '看涨最新价',
  borderColor: '#f08c00',
  data: [
    { x: 61000, y: 0.3 },
    { x: 62000, y: 0 },
    { x: 63000, y: 0.28 },
  ],
};
const put: ClientCurve = {
  key: 'F-PUT-last',
  label: '看跌最新价',
  borderColor: '#5c940d',
  strokeDasharray: '5 5',
  data: [{ x: 62000, y: 0.25 }],
};

type Series = {
  id: string;
  name: string;
  data: [number, number | null][];
  connectNulls: boolean;
  smooth: boolean;
  symbolSize: number;
  showSymbol: boolean;
  emphasis: { scale: number };
  lineStyle: { width: number; color: string; type: unknown };
};
type Opt = {
  animation: boolean;
  series: Series[];
  legend: { top: number; height: number; data: string[] };
  grid: Record<string, unknown>;
  xAxis: Record<string, unknown>;
  yAxis: Record<string, unknown> & { axisLabel: { formatter: (v: number) => string } };
};

describe('buildChartOption', () => {
  const opt = buildChartOption([call, put], ['看涨最新价', '看跌最新价']) as unknown as Opt;

  it('one linear, non-animated line per curve with its colour; puts dashed', () => {
    expect(opt.animation).toBe(false);
    expect(opt.series.map((s) => [s.id, s.name, s.lineStyle.color, s.lineStyle.type])).toEqual([
      ['F-CALL-last', '看涨最新价', '#f08c00', 'solid'],
      ['F-PUT-last', '看跌最新价', '#5c940d', [5, 5]],
    ]);
    for (const s of opt.series) {
      expect(s.smooth).toBe(false);
      expect(s.connectNulls).toBe(true);
      expect(s.lineStyle.width).toBe(2);
      expect(s.symbolSize).toBe(6);
      expect(s.symbolSize * s.emphasis.scale).toBe(10);
    }
  });

  it('draws dots while the strikes are far enough apart for them', () => {
    expect(maxDotsFor(1280)).toBe(160);
    expect(opt.series.every((s) => s.showSymbol)).toBe(true);
    const dense = buildChartOption([call, put], [], 2) as unknown as Opt; // 3 strikes, room for 2
    expect(dense.series.every((s) => !s.showSymbol)).toBe(true);
  });

  it('shares the strikes across curves; missing and zero values are null', () => {
    expect(opt.series[0]!.data).toEqual([
      [61000, 0.3],
      [62000, null],
      [63000, 0.28],
    ]);
    expect(opt.series[1]!.data).toEqual([
      [61000, null],
      [62000, 0.25],
      [63000, null],
    ]);
  });

  it('axes, legend and margins follow the spec', () => {
    expect(opt.xAxis).toMatchObject({ type: 'value', name: '行权价', min: 'dataMin', max: 'dataMax' });
    expect(opt.yAxis).toMatchObject({ type: 'value', name: '隐含波动率' });
    expect(opt.yAxis.axisLabel.formatter(0.2345)).toBe('23.45%');
    expect(opt.legend).toMatchObject({ top: 2, height: 50, data: ['看涨最新价', '看跌最新价'] });
    expect(opt.grid).toMatchObject({ top: 2 + CHART.legendHeight, right: 5, left: 5, bottom: 15 });
    expect((opt.xAxis.splitLine as { lineStyle: { type: number[] } }).lineStyle.type).toEqual([3, 3]);
  });
});

describe('tooltipHtml', () => {
  const color = (c: string) => `color:${c}`;

  it('heads with the strike and lists curves in the selected order, unmatched last, σ with 2 decimals', () => {
    const html = tooltipHtml(
      [
        { seriesName: 'other', color: '#000', value: [62000, 0.2] },
        { seriesName: '看跌最新价', color: '#5c940d', value: [62000, 0.25] },
        { seriesName: '看涨最新价', color: '#f08c00', value: [62000, 0.31234] },
      ],
      ['看涨最新价', '看跌最新价'],
    );
    expect(html).toContain('行权价: 62,000');
    const order = ['看涨最新价: 31.23%', '看跌最新价: 25.00%', 'other: 20.00%'].map((s) => html.indexOf(s));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain(color('#f08c00'));
  });

  it('leaves out curves without a value at that strike', () => {
    const html = tooltipHtml(
      [
        { seriesName: 'A', color: '#111', value: [1, null] },
        { seriesName: 'B', color: '#222', value: [1, 0.1] },
      ],
      ['A', 'B'],
    );
    expect(html).not.toContain('A:');
    expect(html).toContain('B: 10.00%');
  });

  it('escapes names', () => {
    expect(tooltipHtml([{ seriesName: '<b>', value: [1, 0.1] }], [])).toContain('&lt;b&gt;');
  });
});
