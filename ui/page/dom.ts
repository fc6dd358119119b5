// Building DOM nodes safely: text only ever goes in as text nodes, and attributes only from a fixed
// allow-list (no `style`, no event handlers, no `src`; `href` only for in-page and same-site links).
// Nothing here parses markup, so untrusted values (agent outputs, notes) can never become markup.

export type Child = Node | string | number | null | undefined | false | readonly Child[];
type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Readonly<Record<string, AttrValue>>;

const SVG_NS = "http://www.w3.org/2000/svg";

const HTML_ATTRS = new Set([
  "id",
  "class",
  "href",
  "title",
  "role",
  "tabindex",
  "type",
  "name",
  "for",
  "value",
  "placeholder",
  "disabled",
  "hidden",
  "rows",
  "cols",
  "maxlength",
  "autocomplete",
  "spellcheck",
  "selected",
  "open",
  "colspan",
  "scope",
  "datetime",
  "max",
  "min",
  "lang",
  "dir",
]);

const SVG_ATTRS = new Set([
  "id",
  "class",
  "role",
  "tabindex",
  "focusable",
  "viewBox",
  "width",
  "height",
  "x",
  "y",
  "x1",
  "y1",
  "x2",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "d",
  "points",
  "transform",
  "marker-end",
  "markerWidth",
  "markerHeight",
  "markerUnits",
  "refX",
  "refY",
  "orient",
  "text-anchor",
  "dominant-baseline",
  "preserveAspectRatio",
]);

function allowed(name: string, svg: boolean): boolean {
  if (/^data-[a-z0-9-]+$/.test(name) || /^aria-[a-z]+$/.test(name)) return true;
  return (svg ? SVG_ATTRS : HTML_ATTRS).has(name);
}

/** Only in-page (`#…`) and same-origin absolute-path (`/…`, not `//…`) links. */
function safeHref(value: string): boolean {
  return value.startsWith("#") || (value.startsWith("/") && !value.startsWith("//"));
}

function setAttrs(el: Element, attrs: Attrs | null | undefined, svg: boolean): void {
  if (attrs === null || attrs === undefined) return;
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (!allowed(name, svg)) throw new Error(`dom: attribute '${name}' is not allowed`);
    const text = value === true ? "" : String(value);
    if (name === "href" && !safeHref(text)) throw new Error("dom: only in-page and same-origin links");
    el.setAttribute(name, text);
  }
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (typeof child === "string" || typeof child === "number") {
      parent.appendChild(document.createTextNode(String(child)));
    } else parent.appendChild(child as Node);
  }
}

/** An HTML element with allow-listed attributes and text/element children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs, false);
  append(el, children);
  return el;
}

/** An SVG element (createElementNS) with allow-listed attributes and text/element children. */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs, true);
  append(el, children);
  return el;
}

/** Replaces the children of `el`. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** The element with `id`, or an error naming it (the page's own skeleton is missing a part). */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`page: #${id} is missing`);
  return el;
}
