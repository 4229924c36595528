import { measureElement, type DOMElement } from "ink";
import { useLayoutEffect, useState, type RefObject } from "react";

/**
 * The rows the box at `ref` took in the last layout. Only its height counts (Ink's
 * useBoxMetrics also follows the box's position, which moves with every line printed above and
 * would draw the App again for nothing). What is laid out from it must not change it back.
 */
export function useMeasuredRows(ref: RefObject<DOMElement | null>): number {
  const [rows, setRows] = useState(0);
  // After every render, as the box's content may change with any of them: Ink has laid the tree
  // out by the time layout effects run, and the height is set only when it changed.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const height = ref.current ? measureElement(ref.current).height : 0;
    setRows((previous) => (previous === height ? previous : height));
  });
  return rows;
}
