#!/usr/bin/env node
// Every relative link of the docs resolves: the file exists and, for `file.md#anchor`, the anchor is
// a heading of that file (GitHub's slugs) or an explicit `<a id>`. Run by the root `lint` script, so
// CI fails on a link a move or a renamed heading broke. Checks README.md, docs/ (not docs/pending/,
// the helpers' notes waiting to be folded in) and every package's README.md.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SKIPPED_DIRS = new Set(["node_modules", "dist", "pending"]);

const markdownIn = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : markdownIn(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });

const packageReadmes = ["apps", "packages"].flatMap((group) =>
  readdirSync(join(root, group))
    .map((name) => join(root, group, name, "README.md"))
    .filter((path) => existsSync(path)),
);

const files = [join(root, "README.md"), ...markdownIn(join(root, "docs")), ...packageReadmes];

/** The text outside fenced code blocks and inline code, where a `](...)` is a link. */
const prose = (text) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");

/** GitHub's anchor of a heading: its text lower-cased, punctuation dropped, spaces as hyphens. */
const slug = (heading) =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");

const anchorCache = new Map();
const anchorsOf = (path) => {
  let anchors = anchorCache.get(path);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map();
  const text = readFileSync(path, "utf8").replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
  anchorCache.set(path, anchors);
  return anchors;
};

const problems = [];
for (const file of files) {
  const text = prose(readFileSync(file, "utf8"));
  const targets = [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]),
  ];
  for (const target of targets) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const [pathPart, anchor] = target.split("#", 2);
    const path = pathPart === "" ? file : resolve(dirname(file), decodeURIComponent(pathPart));
    const where = `${relative(root, file)}: ${target}`;
    if (!existsSync(path)) {
      problems.push(`${where}: no such file`);
    } else if (anchor && statSync(path).isFile() && path.endsWith(".md") && !anchorsOf(path).has(anchor)) {
      problems.push(`${where}: no heading with this anchor in ${relative(root, path)}`);
    }
  }
}

if (problems.length > 0) {
  console.error(`Broken links in the docs (${problems.length}):\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`check-doc-links: ${files.length} files, every relative link resolves`);
