/**
 * A small self-contained HTML page for the answers of the browser endpoints
 * (authorize errors that cannot go to a verified redirect URI, logout). It
 * is served by route handlers, which do not have the app's stylesheet, so
 * its few styles are inline (contrast above WCAG AA).
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export function renderMessagePage(page: {
  title: string;
  heading: string;
  message: string;
  code?: string;
  link?: { href: string; label: string };
}): string {
  const code = page.code
    ? `<p class="code">Error code: <code>${escapeHtml(page.code)}</code></p>`
    : "";
  const link = page.link ? `<p><a href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.label)}</a></p>` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(page.title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a;line-height:1.5}
main{max-width:32rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #cbd5e1;border-radius:.75rem}
h1{font-size:1.5rem;margin:0 0 1rem}
.code{color:#334155;font-size:.875rem}
code{background:#f1f5f9;padding:.1rem .3rem;border-radius:.25rem}
a{color:#1d4ed8}
a:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(page.heading)}</h1>
<p>${escapeHtml(page.message)}</p>
${code}
${link}
</main>
</body>
</html>
`;
}
