// Moving through the rows from the keyboard, the table focused: ↑ ↓ Home End within the
// page and across pages at its edges, PageUp / PageDown and Ctrl+Home / Ctrl+End across
// pages, ← → between cells, Enter activates (or expands), Space expands, Escape collapses.

import { isTextField } from "./grid-dom.js";
import { known } from "./grid-model.js";

export function listenKeys(model, view, { table }, body, pager) {
  table.addEventListener("keydown", (event) => {
    if (event.altKey || event.metaKey || isTextField(event.target)) return;
    // The headers' buttons (sorting) answer their own keys.
    if (event.target.closest && event.target.closest("thead")) return;
    if (event.ctrlKey && event.key !== "Home" && event.key !== "End") return;
    const list = view.rows();
    const page = pager.currentPage();
    const selected = body.selected();
    const keep = selected >= 0 ? selected : undefined;
    switch (event.key) {
      case "ArrowDown":
        if (selected < 0) body.select(0);
        else if (selected < list.length - 1) body.select(selected + 1);
        else if (pager.hasNext()) pager.goTo(page + 1, "first");
        break;
      case "ArrowUp":
        if (selected < 0) body.select(0);
        else if (selected > 0) body.select(selected - 1);
        else if (page > 0) pager.goTo(page - 1, "last");
        break;
      case "PageDown":
        if (pager.hasNext()) pager.goTo(page + 1, keep);
        break;
      case "PageUp":
        if (page > 0) pager.goTo(page - 1, keep);
        break;
      case "Home":
        if (event.ctrlKey && page > 0) pager.goTo(0, "first");
        else body.select(0);
        break;
      case "End":
        if (event.ctrlKey && known(model.get("total")) && page < pager.pageCount() - 1) {
          pager.goTo(pager.pageCount() - 1, "last");
        } else {
          body.select(list.length - 1);
        }
        break;
      case "ArrowLeft":
      case "ArrowRight":
        body.moveFocus(event.key === "ArrowLeft" ? -1 : 1);
        break;
      case "Enter":
        if (selected < 0 || selected >= list.length) break;
        if (model.get("activatable") && body.focusColumn() >= 0) body.activate(selected);
        else body.toggle(selected);
        break;
      case " ":
        if (selected >= 0 && selected < list.length) body.toggle(selected);
        break;
      case "Escape":
        if (view.expandedIndex() < 0) return;
        model.send({ type: "collapse" });
        break;
      default:
        return;
    }
    // Handled here: keep the notebook from treating the key as one of its shortcuts.
    event.preventDefault();
    event.stopPropagation();
  });
}
