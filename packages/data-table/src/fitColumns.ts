/** 参与宽度分配的一列：id、宽度（像素）与优先级（1 永远显示；数字越大越先隐藏）。 */
export interface FitColumn {
  id: string;
  width: number;
  priority: number;
}

/**
 * 表格比各列宽度之和窄时，按优先级隐藏列，直到剩下的列放得下（不出现横向滚动）。
 * 先隐藏优先级数字最大的列，同一优先级先隐藏靠后的列；优先级 1 的列和 fixedWidth（选择列、操作列）
 * 从不隐藏。available ≤ 0（尚未测量）时不隐藏任何列。返回被隐藏的列 id。
 */
export function fitColumns(columns: readonly FitColumn[], fixedWidth: number, available: number): Set<string> {
  const hidden = new Set<string>();
  if (!(available > 0)) return hidden;
  let total = fixedWidth + columns.reduce((sum, c) => sum + c.width, 0);
  const candidates = columns
    .map((column, index) => ({ column, index }))
    .filter(({ column }) => column.priority > 1)
    .sort((a, b) => b.column.priority - a.column.priority || b.index - a.index);
  for (const { column } of candidates) {
    if (total <= available) break;
    hidden.add(column.id);
    total -= column.width;
  }
  return hidden;
}
