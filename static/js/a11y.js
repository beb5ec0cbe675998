// Accessibility behaviours (WCAG 2.1 AA), with no inline script: the CSP forbids it.
// 1. A refused save: the focus moves to the error summary; its links move the focus to the field.
// 2. The stance matrix is an ARIA grid: one tab stop, arrow keys move between cells (roving tabindex).
// 3. The offer form's live preview: one short status line, updated in place; aria-busy while loading.
// 4. The offer form's live validation: the field changed is sent along (its errors land on it), and
//    one polite status line says what is wrong with it.
// 5. "Load more" (a link that replaces itself with the next events): the focus moves to the first event it
//    brought, which a screen reader then reads, instead of falling back to the top of the page.
// 6. A link styled and announced as a button (role="button": "Load more", "Swap A and B", "Edit the offer") answers
//    the Space key as a button does, not only Enter.
// 7. A form htmx replaces with the server's answer while the focus is in it (the follow button, an import's source
//    and each proposed quote): the focus goes to the first field the answer marks invalid, else to the control in
//    the same place (the new "Unfollow" where "Follow by e-mail" was), instead of falling back to the top of the page.
(function () {
  "use strict";

  // 1. Error summary -------------------------------------------------------------------------
  function focusErrorSummary() {
    const summary = document.querySelector("[data-error-summary]");
    if (summary) {
      summary.focus();
    }
  }

  document.addEventListener("click", function (event) {
    const link = event.target instanceof Element && event.target.closest("[data-error-summary] a[href^='#']");
    if (!link) {
      return;
    }
    const target = document.getElementById(decodeURIComponent(link.getAttribute("href").slice(1)));
    if (!target) {
      return;
    }
    event.preventDefault();
    const label = target.id && document.querySelector("label[for='" + CSS.escape(target.id) + "']");
    (label || target).scrollIntoView({block: "center"});
    if (!target.matches("input, select, textarea, button, [tabindex]")) {
      target.setAttribute("tabindex", "-1");
    }
    target.focus({preventScroll: true});
  });

  // 2. The stance matrix as a grid -------------------------------------------------------------
  function gridCells(grid) {
    return Array.from(grid.querySelectorAll("tbody tr")).map(function (row) {
      return Array.from(row.querySelectorAll("th a, td a"));
    }).filter(function (row) { return row.length > 0; });
  }

  function setupGrid(grid) {
    if (grid.dataset.gridReady) {
      return;
    }
    grid.dataset.gridReady = "1";
    const rows = gridCells(grid);
    if (!rows.length) {
      return;
    }
    const all = rows.flat();
    const current = grid.querySelector("a[aria-current]") || (rows[0][1] || rows[0][0]);
    all.forEach(function (cell) { cell.setAttribute("tabindex", cell === current ? "0" : "-1"); });

    function moveTo(cell) {
      all.forEach(function (other) { other.setAttribute("tabindex", other === cell ? "0" : "-1"); });
      // Scrolled into view clear of the sticky names (the frame's scroll padding), not left under them.
      cell.focus({ preventScroll: true });
      cell.scrollIntoView({ block: "nearest", inline: "nearest" });
    }

    grid.addEventListener("focusin", function (event) {
      const cell = event.target.closest("a");
      if (cell && all.includes(cell)) {
        all.forEach(function (other) { other.setAttribute("tabindex", other === cell ? "0" : "-1"); });
      }
    });
    grid.addEventListener("keydown", function (event) {
      const cell = event.target.closest("a");
      if (!cell || !all.includes(cell) || event.altKey || event.metaKey) {
        return;
      }
      let r = rows.findIndex(function (row) { return row.includes(cell); });
      let c = rows[r].indexOf(cell);
      const last = rows.length - 1;
      switch (event.key) {
        case "ArrowRight": c = Math.min(c + 1, rows[r].length - 1); break;
        case "ArrowLeft": c = Math.max(c - 1, 0); break;
        case "ArrowDown": r = Math.min(r + 1, last); break;
        case "ArrowUp": r = Math.max(r - 1, 0); break;
        case "Home": if (event.ctrlKey) { r = 0; } c = 0; break;
        case "End": if (event.ctrlKey) { r = last; } c = rows[r].length - 1; break;
        case "PageDown": r = Math.min(r + 5, last); break;
        case "PageUp": r = Math.max(r - 5, 0); break;
        default: return;
      }
      event.preventDefault();
      moveTo(rows[r][Math.min(c, rows[r].length - 1)]);
    });
  }

  function setupGrids() {
    document.querySelectorAll("[data-grid]").forEach(setupGrid);
  }

  // 3. The live preview's status line ----------------------------------------------------------
  function isPreviewPanel(element) {
    return element instanceof Element && element.matches(".preview-panel");
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isPreviewPanel(event.detail.elt)) {
      const region = document.getElementById("fiscal-preview");
      if (region) {
        region.setAttribute("aria-busy", "true");
      }
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (isPreviewPanel(event.detail.elt)) {
      const region = document.getElementById("fiscal-preview");
      if (region) {
        region.removeAttribute("aria-busy");
      }
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    const region = document.getElementById("fiscal-preview");
    const status = document.getElementById("preview-status");
    if (region && status && event.detail.target === region) {
      const source = region.querySelector("[data-preview-status]");
      const text = source ? source.textContent.trim() : "";
      if (status.textContent !== text) {
        status.textContent = text;  // the same element, its text replaced: one short announcement
      }
    }
    setupGrids();
  });

  // 4. Live validation -------------------------------------------------------------------------
  let changed = "";  // the name of the field the person changed last

  function remember(event) {
    const field = event.target;
    if (field instanceof Element && field.name && !field.name.startsWith("_") && field.form &&
        field.form.id === "offer-form") {
      changed = field.name;
    }
  }

  document.addEventListener("input", remember);
  document.addEventListener("change", remember);
  document.addEventListener("htmx:configRequest", function (event) {
    const elt = event.detail.elt;
    if (elt instanceof Element && elt.hasAttribute("data-live-validation") && changed) {
      event.detail.parameters["_changed"] = changed;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    const elt = event.detail.elt;
    const status = document.getElementById("validation-status");
    if (!(elt instanceof Element) || !elt.hasAttribute("data-live-validation") || !status || !changed) {
      return;
    }
    const control = document.querySelector("#offer-form [name='" + CSS.escape(changed) + "']");
    if (!control) {
      return;
    }
    const group = control.type === "checkbox" || control.type === "radio" ? control.closest("fieldset") : null;
    const holder = group || control;
    const slotId = (holder.getAttribute("aria-describedby") || "").split(/\s+/).find(function (id) {
      return id.endsWith("_error");
    }) || control.id + "_error";
    const slot = document.getElementById(slotId);
    const errors = slot ? Array.from(slot.querySelectorAll("p")).map(function (p) { return p.textContent.trim(); })
      .filter(Boolean) : [];
    let text = "";
    if (errors.length) {
      const naming = group ? group.querySelector("legend")
        : control.id && document.querySelector("label[for='" + CSS.escape(control.id) + "']");
      const name = naming ? naming.textContent.replace(/\*\s*$/, "").trim() : "";
      // The label's colon as the page's language writes it ("Montant :" in French), from the server.
      const colon = status.dataset.colon || "%(label)s:";
      text = (name ? colon.replace("%(label)s", name) + " " : "") + errors.join(" ");
    }
    if (status.textContent !== text) {
      status.textContent = text;
    }
  });

  // 5. Load more ----------------------------------------------------------------------------------
  let lastBefore = null;  // the event above the "Load more" item, when its link was followed

  document.addEventListener("htmx:beforeRequest", function (event) {
    const elt = event.detail.elt;
    if (elt instanceof Element && elt.hasAttribute("data-load-more")) {
      const item = elt.closest("li");
      lastBefore = item ? item.previousElementSibling : null;
    }
  });
  document.addEventListener("htmx:load", function (event) {
    // (Each element swapped in is "loaded"; the link itself is gone by then, so the event names the element.)
    if (lastBefore && event.target === lastBefore.nextElementSibling) {
      lastBefore = null;
      event.target.setAttribute("tabindex", "-1");
      event.target.focus();
    }
  });

  // 6. Links that are buttons ---------------------------------------------------------------------
  document.addEventListener("keydown", function (event) {
    const link = event.target instanceof Element && event.target.closest('a[href][role="button"]');
    if (link && event.key === " " && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();  // (the page would scroll)
      link.click();
    }
  });

  // 7. Focus kept through a swap --------------------------------------------------------------------
  const FOCUSABLE = "a[href], button, input:not([type=hidden]), select, textarea";
  let swapped = null;  // where the replaced region was, and which of its controls had the focus

  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    const active = document.activeElement;
    swapped = null;
    if (target instanceof Element && active && active !== document.body && target.contains(active) &&
        !active.closest("[data-load-more]")) {  // (5. moves the focus to the events "Load more" brought)
      swapped = {id: target.id, parent: target.parentElement, next: target.nextElementSibling,
                 index: Array.from(target.querySelectorAll(FOCUSABLE)).indexOf(active)};
    }
  });
  // After the settle, when htmx has made the new form live: Enter pressed at once on the new button would else post it
  // as a plain form.
  document.addEventListener("htmx:afterSettle", function () {
    const was = swapped;
    swapped = null;
    if (!was || (document.activeElement && document.activeElement !== document.body && document.activeElement.isConnected)) {
      return;  // nothing was focused there, or htmx kept the focus (a field with an id)
    }
    // The answer: the element under the same id, else the one now where the replaced one was.
    const region = (was.id && document.getElementById(was.id)) ||
      (was.next && was.next.isConnected ? was.next.previousElementSibling : was.parent && was.parent.lastElementChild);
    if (!region) {
      return;
    }
    const controls = Array.from(region.querySelectorAll(FOCUSABLE));
    const target = region.querySelector("[aria-invalid='true']") ||
      controls[Math.min(was.index, controls.length - 1)] || region;
    if (target === region && !region.matches(FOCUSABLE)) {
      region.setAttribute("tabindex", "-1");
    }
    target.focus();
  });

  function ready() {
    focusErrorSummary();
    setupGrids();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
