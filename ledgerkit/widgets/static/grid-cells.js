// How a value is shown in its cell, and how a cell cut by its column's width is read
// whole. Values arrive already formatted (big integers, addresses and bytes as text), so
// nothing here parses numbers.

import { copyButton, element } from "./grid-dom.js";

// Kinds shown in a short form, the full value in the tooltip and a copy button.
const SHORT_FORMS = {
  address: shortId,
  hash: shortId,
  handle: shortId,
  move: shortMove,
};
export const NUMERIC = new Set(["int", "version"]);

// 0x1234…abcd: enough to tell values apart at a glance; the full value is in the title.
export function shortId(text) {
  return text.length > 14 ? `${text.slice(0, 6)}…${text.slice(-4)}` : text;
}

// A Move type or function with each long address in it shortened, module and names
// whole: 0x5a5a…5a5a::board::Board<0x1::string::String>.
export function shortMove(text) {
  return text.replace(/0x[0-9a-fA-F]{15,}(?=::)/g, shortId);
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
  const short = SHORT_FORMS[column.kind];
  if (short) {
    const shown = element("span", "lk-value", short(text));
    shown.title = text;
    td.dataset.full = text;
    td.append(shown, copyButton(text, column.label));
  } else {
    td.textContent = column.kind === "int" ? grouped(text) : text;
  }
  return td;
}

// Every cell and header of `table` that its width cuts (an ellipsis shows) gets its
// whole text as its tooltip; one shown whole, none (a short form keeps its own).
export function markCut(table) {
  for (const cell of table.querySelectorAll("tr.lk-row > td.lk-cell, thead th")) {
    const value = cell.querySelector(":scope > .lk-value");
    const cut = cell.scrollWidth > cell.clientWidth || (value && value.scrollWidth > value.clientWidth);
    const full = cell.dataset.full || cell.dataset.label || cell.textContent;
    if (cut) cell.title = full;
    else cell.removeAttribute("title");
  }
}
