/**
 * Scalar's default light theme, changed only where axe-core (WCAG 2.2 AA)
 * finds it wanting on /docs:
 * - color-contrast: the secondary and muted text colours, the orange and
 *   yellow of method badges and the accent are darkened to at least 4.5:1 on
 *   the theme's backgrounds;
 * - scrollable-region-focusable: code blocks wrap instead of scrolling
 *   sideways, and the endpoint lists of a tag and the example cards grow to
 *   their content instead of scrolling inside a box a keyboard could not
 *   reach;
 * - target-size: icon buttons are at least 24 by 24 CSS pixels.
 */
export const REFERENCE_PAGE_CSS = `
.light-mode, .light-mode .dark-mode {
  --scalar-color-2: #595959;
  --scalar-color-3: #636363;
  --scalar-color-accent: #2f62c9;
  --scalar-color-orange: #9a5a16;
  --scalar-color-yellow: #866600;
}
.scalar-app pre, .scalar-app pre code.hljs, .scalar-app .scalar-card-content pre, .scalar-app .scalar-card-content code {
  white-space: pre-wrap !important;
  overflow-wrap: anywhere;
  word-break: break-all;
  overflow: visible !important;
}
.scalar-app ul[aria-label$=" endpoints"], .scalar-app .scalar-card-content.custom-scroll {
  max-height: none !important;
  overflow: visible !important;
}
.scalar-app .right-1\\.25 {
  min-width: 24px;
  min-height: 24px;
}
`;
