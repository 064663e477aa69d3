import type { ReactNode } from "react";

/**
 * A table's box, which scrolls sideways when the table is wider than a phone's screen: a named
 * region a keyboard can focus, so it can be scrolled without a mouse too (axe:
 * scrollable-region-focusable).
 */
export const TableWrap = ({ label, children }: { label: string; children: ReactNode }) => (
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
  <section className="table-wrap" aria-label={label} tabIndex={0}>
    {children}
  </section>
);
