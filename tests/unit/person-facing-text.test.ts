import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Issue 35: what a person reads on the hosted pages comes from the message
 * catalogues (messages/<locale>.json), never from English written into a
 * component. This reads every person-facing component with the TypeScript
 * parser and lists JSX text with letters in it, and string literals given
 * to the attributes a person reads or hears (aria-label, alt, placeholder,
 * title, and the like) or shown as a child (`{"Close"}`, `{ok ? "Yes" : "No"}`).
 */
const root = path.resolve(import.meta.dirname, "..", "..");
// The translated pages (issue 35); the sign-in, consent, account and activation pages join as they are translated.
const PERSON_FACING = ["components/verify", "app/verify", "components/oidc/face-scan.tsx"];
const READ_ATTRIBUTES = new Set(["aria-label", "aria-description", "aria-valuetext", "aria-roledescription", "alt", "placeholder", "title", "label"]);

function files(entry: string): string[] {
  const full = path.join(root, entry);
  if (entry.endsWith(".tsx")) return [full];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".tsx"))
    .map((f) => path.join(full, f));
}

/** The English a component hard-codes, as `file:line text`. */
function hardCodedText(file: string, text = readFileSync(file, "utf8")): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const at = (node: ts.Node, text: string, offset = 0) =>
    `${path.relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart() + offset).line + 1} ${JSON.stringify(text)}`;
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && /\p{L}/u.test(node.text)) found.push(at(node, node.text.trim(), node.text.length - node.text.trimStart().length));
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
      const value = ts.isStringLiteral(node.initializer)
        ? node.initializer.text
        : ts.isJsxExpression(node.initializer) && node.initializer.expression && ts.isStringLiteralLike(node.initializer.expression)
          ? node.initializer.expression.text
          : null;
      if (value && /\p{L}/u.test(value)) found.push(at(node, value));
    }
    // A string shown as a child ({"Close"}, {ok ? "Yes" : "No"}); a call's arguments are keys and values, not text.
    if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      const shown = (e: ts.Node): void => {
        if (ts.isStringLiteralLike(e) && /\p{L}/u.test(e.text)) found.push(at(e, e.text));
        if (ts.isConditionalExpression(e)) [e.whenTrue, e.whenFalse].forEach(shown);
        // `ok && "Yes"` shows its right side, `a ?? "Yes"` and `a || "Yes"` both; a comparison shows neither.
        if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) shown(e.right);
        if (ts.isBinaryExpression(e) && [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(e.operatorToken.kind)) [e.left, e.right].forEach(shown);
        if (ts.isParenthesizedExpression(e)) shown(e.expression);
      };
      shown(node.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("person-facing components", () => {
  it("hard-code no text a person reads: every word comes from the message catalogues", () => {
    const all = PERSON_FACING.flatMap(files);
    expect(all.length).toBeGreaterThan(20);
    expect(all.flatMap((file) => hardCodedText(file))).toEqual([]);
  });

  it("the scan catches English in JSX text and in the attributes a person reads, and leaves code alone", () => {
    const probe = `export const A = ({ t }) => (
  <p aria-label="Close" className="mt-2">
    Hello {t("x")} {done ? "Done" : t("z")} {kind === "intro" && t("w")} {kind === "sent" && "Sent"}
    <img alt={"Your photo"} src="/a.png" />
    <input placeholder={t("y")} data-testid="field" />
  </p>
);`;
    expect(hardCodedText(path.join(root, "probe.tsx"), probe)).toEqual(['probe.tsx:2 "Close"', 'probe.tsx:3 "Hello"', 'probe.tsx:3 "Done"', 'probe.tsx:3 "Sent"', 'probe.tsx:4 "Your photo"']);
  });
});
