// A row shown in full (expanded): its toggle, and below the row every value whole, a
// structured one as an indented tree with the Move type of each field, each with a copy
// button. The kernel builds what is shown (the model's `detail`); the view only asks.

import { copyButton, element } from "./grid-dom.js";

export function drawToggle(open) {
  const td = element("td", "lk-toggle-cell");
  const button = element("button", "lk-toggle", open ? "▾" : "▸");
  button.type = "button";
  button.tabIndex = -1;
  button.setAttribute("aria-expanded", open ? "true" : "false");
  button.setAttribute("aria-label", open ? "Hide the row in full" : "Show the row in full");
  button.title = open ? "Hide (Space)" : "Show the row in full (Space)";
  td.append(button);
  return td;
}

function drawTree(node, depth, into) {
  for (const child of node.children || []) {
    const line = element("div", "lk-node");
    line.setAttribute("role", "treeitem");
    line.setAttribute("aria-level", String(depth + 1));
    line.style.paddingLeft = `${depth * 1.5}em`;
    // Read (and copied) as text: "coin: 0x1::coin::Coin<…>", "value: u64 = 100".
    line.append(element("span", "lk-key", child.name), ":");
    if (child.type) line.append(" ", element("span", "lk-type", child.type));
    if (child.value !== null && child.value !== undefined) {
      line.append(child.type ? " = " : " ", element("span", "lk-leaf", child.value));
    }
    into.append(line);
    if (child.children && child.children.length) drawTree(child, depth + 1, into);
  }
}

// The row below the expanded one, spanning `span` cells.
export function drawDetail(detail, span) {
  const tr = element("tr", "lk-detail");
  const td = element("td");
  td.colSpan = span;
  const body = element("div", "lk-detail-body");
  body.setAttribute("role", "region");
  body.setAttribute("aria-label", "The row in full");
  for (const field of detail.fields || []) {
    const box = element("div", `lk-field lk-kind-${field.kind}`);
    box.dataset.name = field.name;
    const top = element("div", "lk-field-head");
    top.append(element("span", "lk-field-label", field.label));
    if (field.tree && field.tree.type) top.append(element("span", "lk-type", field.tree.type));
    top.append(copyButton(field.text, field.label));
    box.append(top);
    if (field.tree && field.tree.children && field.tree.children.length) {
      const tree = element("div", "lk-tree");
      tree.setAttribute("role", "tree");
      drawTree(field.tree, 0, tree);
      box.append(tree);
    } else {
      box.append(element("div", "lk-field-text", field.text));
    }
    body.append(box);
  }
  td.append(body);
  tr.append(td);
  return tr;
}

// Expands row `index`, or collapses it when it is the one shown in full.
export function toggle(model, view, index) {
  if (index < 0 || index >= view.rows().length) return;
  if (index === view.expandedIndex()) model.send({ type: "collapse" });
  else model.send({ type: "expand", index });
}
