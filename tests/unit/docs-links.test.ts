import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import GithubSlugger from "github-slugger";
import { toString } from "mdast-util-to-string";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import { describe, expect, it } from "vitest";

/**
 * The README and the pages under docs/ link each other and the repository's
 * files with relative links. Every such link must resolve: the file (or
 * folder) exists, and a `#fragment` into a Markdown file names one of its
 * headings by GitHub's anchor rule (github-slugger on the heading's text,
 * `-1`, `-2` on repeats). Markdown is parsed by remark (with GFM), never by
 * hand. External links (`https:`, `mailto:`...) are not followed. Links
 * written as raw HTML (`<a href>`) are not checked; the docs use none.
 *
 * The README stays an entry page (under 400 lines) and lists every docs page.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));

type Source = {
  /** The file's Markdown, or undefined when it is not there. */
  markdown(file: string): string | undefined;
  /** Whether a file or folder exists. */
  exists(file: string): boolean;
};

const disk: Source = {
  markdown: (file) => (existsSync(file) && statSync(file).isFile() ? readFileSync(file, "utf8") : undefined),
  exists: (file) => existsSync(file),
};

const parser = unified().use(remarkParse).use(remarkGfm);

function parse(markdown: string) {
  return parser.parse(markdown);
}

/** The anchors GitHub gives a Markdown file's headings, in order. */
function anchors(markdown: string): string[] {
  const slugger = new GithubSlugger();
  const found: string[] = [];
  visit(parse(markdown), "heading", (heading) => {
    found.push(slugger.slug(toString(heading)));
  });
  return found;
}

/** Every link, image and link reference definition target of a Markdown text, with its line. */
function links(markdown: string): Array<{ url: string; line: number }> {
  const found: Array<{ url: string; line: number }> = [];
  visit(parse(markdown), ["link", "image", "definition"], (node) => {
    if ("url" in node && typeof node.url === "string") found.push({ url: node.url, line: node.position?.start.line ?? 0 });
  });
  return found;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** The broken relative links of one Markdown file, as `file:line url (reason)`. */
function brokenLinks(file: string, markdown: string, source: Source = disk): string[] {
  const broken: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (target: string): Set<string> | undefined => {
    if (!anchorCache.has(target)) {
      const text = target === file ? markdown : source.markdown(target);
      if (text === undefined) return undefined;
      anchorCache.set(target, new Set(anchors(text)));
    }
    return anchorCache.get(target);
  };
  for (const { url, line } of links(markdown)) {
    if (EXTERNAL.test(url)) continue;
    const where = `${file.startsWith(root) ? path.relative(root, file) : file}:${line} ${url}`;
    if (url.startsWith("/")) {
      broken.push(`${where} (absolute path: write it relative to the file)`);
      continue;
    }
    const hash = url.indexOf("#");
    const rawPath = hash === -1 ? url : url.slice(0, hash);
    const fragment = hash === -1 ? undefined : url.slice(hash + 1);
    let target: string;
    try {
      target = rawPath === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(rawPath));
    } catch {
      broken.push(`${where} (malformed percent-encoding)`);
      continue;
    }
    if (target !== file && !source.exists(target)) {
      broken.push(`${where} (no such file)`);
      continue;
    }
    if (fragment === undefined) continue;
    if (!target.endsWith(".md")) {
      if (!/^L\d+(?:-L\d+)?$/.test(fragment)) broken.push(`${where} (an anchor into a file that is not Markdown)`);
      continue;
    }
    const headings = anchorsOf(target);
    if (headings === undefined) broken.push(`${where} (not a readable Markdown file)`);
    else if (!headings.has(decodeURIComponent(fragment))) broken.push(`${where} (no heading with this anchor)`);
  }
  return broken;
}

const readme = path.join(root, "README.md");
const docsDir = path.join(root, "docs");
const docPages = readdirSync(docsDir)
  .filter((name) => name.endsWith(".md"))
  .sort()
  .map((name) => path.join(docsDir, name));

describe("documentation links", () => {
  it("the checker itself finds a missing file, a missing anchor and a missing anchor in another file", () => {
    const files = new Map<string, string>([
      ["/virtual/README.md", "# Project\n\n## Known heading\n\n## Known heading\n"],
      ["/virtual/docs/page.md", "# A page\n\n## Proofs, not data (the `zkp` scope)\n\nSee [the README](../README.md).\n"],
    ]);
    const source: Source = {
      markdown: (file) => files.get(file),
      exists: (file) => files.has(file) || file === "/virtual/docs",
    };
    const markdown = [
      "# Project",
      "",
      "## Known heading",
      "",
      "## Known heading",
      "",
      "[here](#known-heading) and [its repeat](#known-heading-1) and [a page](docs/page.md)",
      "[an anchor there](docs/page.md#proofs-not-data-the-zkp-scope) and [a folder](docs/)",
      "[outside](https://example.com/missing.md#nowhere) and [mail](mailto:someone@example.com)",
      "[missing file](docs/missing.md)",
      "[missing anchor](#unknown-heading)",
      "",
      "[missing anchor there][ref]",
      "",
      "[ref]: docs/page.md#no-such-heading",
    ].join("\n");
    expect(brokenLinks("/virtual/README.md", markdown, source)).toEqual([
      "/virtual/README.md:10 docs/missing.md (no such file)",
      "/virtual/README.md:11 #unknown-heading (no heading with this anchor)",
      "/virtual/README.md:15 docs/page.md#no-such-heading (no heading with this anchor)",
    ]);
    // And the same page without the broken lines is clean.
    expect(brokenLinks("/virtual/README.md", markdown.split("\n").slice(0, 9).join("\n"), source)).toEqual([]);
  });

  it("uses GitHub's anchor for headings with code, punctuation and repeats", () => {
    expect(anchors("# Title\n\n## Liveness: the colour challenge\n\n### Proofs, not data (the `zkp` scope)\n\n## Endpoints\n\n### Endpoints\n")).toEqual([
      "title",
      "liveness-the-colour-challenge",
      "proofs-not-data-the-zkp-scope",
      "endpoints",
      "endpoints-1",
    ]);
  });

  it.each([readme, ...docPages].map((file) => [path.relative(root, file), file]))("every relative link and anchor in %s resolves", (_name, file) => {
    expect(brokenLinks(file, readFileSync(file, "utf8"))).toEqual([]);
  });

  it("the README is under 400 lines", () => {
    const lines = readFileSync(readme, "utf8").trimEnd().split("\n").length;
    expect(lines).toBeLessThan(400);
  });

  it("the README links every docs page", () => {
    const linked = new Set(
      links(readFileSync(readme, "utf8"))
        .filter(({ url }) => !EXTERNAL.test(url))
        .map(({ url }) => path.resolve(root, decodeURIComponent(url.split("#")[0] ?? ""))),
    );
    expect(docPages.filter((page) => !linked.has(page)).map((page) => path.relative(root, page))).toEqual([]);
  });

  it.each(docPages.map((file) => [path.relative(root, file), file]))("%s has exactly one top-level heading, its first line", (_name, file) => {
    const tree = parse(readFileSync(file, "utf8"));
    const titles: string[] = [];
    visit(tree, "heading", (heading) => {
      if (heading.depth === 1) titles.push(toString(heading));
    });
    expect(titles).toHaveLength(1);
    expect(tree.children[0]?.type === "heading" && tree.children[0].depth === 1).toBe(true);
  });
});
