// How a value is shown in its cell. Values arrive already formatted (big integers,
// addresses and bytes as text), so nothing here parses numbers.

import { copyButton, element } from "./grid-dom.js";

const SHORTENED = new Set(["address", "hash", "handle"]);
export const NUMERIC = new Set(["int", "version"]);

// 0x1234…abcd: enough to tell values apart at a glance; the full value is in the title.
function shorten(text) {
  return text.length > 14 ? `${text.slice(0, 6)}…${text.slice(-4)}` : text;
}

// 1234567 -> "1,234,567"; anything that is not a plain integer as it is.
export function grouped(text) {
  const match = /^(-?)(\d+)$/.exec(text);
  return match ? match[1] + match[2].replace(/\B(?=(\d{3})+(?!\d))/g, ",") : text;
}

function cellText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "true" : "false";
  return String(value);
}

export function drawCell(column, value) {
  const td = element("td", `lk-cell lk-kind-${column.kind}`);
  if (NUMERIC.has(column.kind)) td.classList.add("lk-num");
  if (value === null || value === undefined) {
    td.classList.add("lk-null");
    return td;
  }
  const text = cellText(value);
  if (SHORTENED.has(column.kind)) {
    const value = element("span", "lk-value", shorten(text));
    value.title = text;
    td.append(value, copyButton(text, column.label));
  } else {
    td.textContent = column.kind === "int" ? grouped(text) : text;
    if (text.length > 32) td.title = text;
  }
  return td;
}
