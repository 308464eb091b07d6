// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installDomPolyfills, renderUi } from '../../test/dom';
import type { MarketSelection } from './selection';
import { TopBar } from './TopBar';

beforeAll(() => {
  installDomPolyfills();
  // jsdom has no server: the list calls fail, which the bar only logs.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(cleanup);

function bar(selection: MarketSelection, curveTypeIds = ['CALL-last', 'PUT-last']) {
  renderUi(<TopBar selection={selection} onSelection={vi.fn()} curveTypeIds={curveTypeIds} onCurveTypeIds={vi.fn()} />);
}

const combo = (name: string) => screen.getByRole('combobox', { name }) as HTMLInputElement;

describe('TopBar', () => {
  it('waits for an exchange, a product and a future before the next select and the curve types', () => {
    bar({ exchange: null, product: null, future: null });
    expect(combo('交易所').disabled).toBe(false);
    expect(combo('品种').disabled).toBe(true);
    expect(combo('期货合约').disabled).toBe(true);
    expect(combo('曲线类型').disabled).toBe(true);
    // The default curve types are shown even while disabled.
    const pills = [...document.querySelectorAll('.mantine-Pill-label')].map((p) => p.textContent);
    expect(pills).toEqual(['看涨最新价', '看跌最新价']);
  });

  it('shows a preselection with Chinese names and the short future, before the lists arrive', () => {
    bar({ exchange: 'SHFE', product: 'cu', future: 'SHFE.cu2702' });
    expect(combo('交易所').value).toBe('上海期货交易所');
    expect(combo('品种').value).toBe('铜');
    expect(combo('期货合约').value).toBe('cu2702');
    expect(combo('曲线类型').disabled).toBe(false);
  });

  it('offers the placeholder when no curve type is selected', () => {
    bar({ exchange: 'SHFE', product: 'cu', future: 'SHFE.cu2702' }, []);
    expect(combo('曲线类型').placeholder).toBe('请选择曲线类型');
  });
});
