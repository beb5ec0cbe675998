// Daily use (issue 16), with no inline script (the CSP forbids it):
// - a field whose message (an element with data-field-message, swapped in out of band) is not empty
//   is marked aria-invalid, and clean again once the message is gone.
(function () {
  "use strict";

  function markFields(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("[data-field-message]").forEach(function (message) {
      const field = message.closest("label, .field") && message.closest("label, .field").querySelector("input, select, textarea");
      if (!field) {
        return;
      }
      if (message.textContent.trim()) {
        field.setAttribute("aria-invalid", "true");
      } else if (field.getAttribute("aria-invalid") === "true") {
        field.removeAttribute("aria-invalid");
      }
    });
  }

  document.addEventListener("htmx:afterSettle", function () { markFields(document); });
})();

// Nothing typed is lost (issue 16.2):
// - a form marked data-warn-unsaved warns before the page is left with changes not saved;
// - "Start from an existing offer" (data-confirm-overwrite) asks before replacing what was typed.
(function () {
  "use strict";

  const dirty = new WeakSet();

  function guarded(element) {
    return element instanceof Element ? element.closest("form[data-warn-unsaved]") : null;
  }

  document.addEventListener("input", function (event) {
    const form = guarded(event.target);
    if (form && event.isTrusted) {
      dirty.add(form);
    }
  });
  document.addEventListener("change", function (event) {
    const form = guarded(event.target);
    if (form && event.isTrusted) {
      dirty.add(form);
    }
  });
  document.addEventListener("submit", function (event) {
    if (event.target.matches && event.target.matches("form[data-warn-unsaved]")) {
      dirty.delete(event.target);
    }
  });

  function dirtyForms() {
    return Array.from(document.querySelectorAll("form[data-warn-unsaved]")).filter(function (form) {
      return dirty.has(form);
    });
  }

  window.addEventListener("beforeunload", function (event) {
    if (dirtyForms().length) {
      event.preventDefault();
      event.returnValue = "";
    }
  });

  document.addEventListener("htmx:confirm", function (event) {
    const asker = event.detail.elt.closest && event.detail.elt.closest("[data-confirm-overwrite]");
    if (!asker) {
      return;
    }
    const changed = dirtyForms();
    if (!changed.length) {
      return;
    }
    event.preventDefault();
    if (window.confirm(asker.dataset.confirmOverwrite)) {
      changed.forEach(function (form) { dirty.delete(form); });
      event.detail.issueRequest(true);
    }
  });
})();

// Phone (issue 16.10): the main menu collapses into a button (without JavaScript it stays open), closed again by Escape;
// a wide table marked data-scroll-end opens on its last columns (the stance matrix's latest months).
(function () {
  "use strict";

  function setUp() {
    const toggle = document.querySelector(".menu-toggle");
    const menu = toggle && document.getElementById(toggle.getAttribute("aria-controls"));
    if (toggle && menu) {
      document.documentElement.classList.add("menu-collapsible");
      toggle.hidden = false;
      const show = function (open) {
        toggle.setAttribute("aria-expanded", String(open));
        menu.classList.toggle("open", open);
      };
      toggle.addEventListener("click", function () {
        show(toggle.getAttribute("aria-expanded") !== "true");
      });
      // Escape closes the open menu and puts the focus back on its button (from the button, a link in the
      // menu, or nowhere in particular; a field elsewhere on the page keeps its own Escape).
      document.addEventListener("keydown", function (event) {
        if (event.key !== "Escape" || toggle.getAttribute("aria-expanded") !== "true") {
          return;
        }
        const here = document.activeElement;
        if (here && here !== document.body && here !== toggle && !menu.contains(here)) {
          return;
        }
        show(false);
        toggle.focus();
      });
    }
    document.querySelectorAll("[data-scroll-end]").forEach(function (frame) {
      frame.scrollLeft = frame.scrollWidth;
    });
    // A table frame that scrolls sideways is a labelled region one can reach and scroll by keyboard.
    document.querySelectorAll(".table-wrap:not([role])").forEach(function (frame) {
      const table = frame.querySelector("table");
      if (!table || frame.scrollWidth <= frame.clientWidth + 1) {
        return;
      }
      const caption = table.querySelector("caption");
      const section = frame.closest("section, article");
      const heading = section && section.querySelector("h1, h2, h3");
      const label = (caption || heading || document.querySelector("h1"));
      const name = label ? label.textContent.trim() : document.title;
      frame.setAttribute("role", "region");
      frame.setAttribute("tabindex", "0");
      frame.setAttribute("aria-label", name);
      // A section named like the frame ("Where each government stands", its table's caption) would be a second
      // region of that name around it: the frame, now the region, is the one listed.
      const named = frame.parentElement.closest("section[aria-labelledby]");
      const names = named && named.getAttribute("aria-labelledby").split(/\s+/).map(function (id) {
        const element = document.getElementById(id);
        return element ? element.textContent.trim() : "";
      }).join(" ");
      if (names === name) {
        named.removeAttribute("aria-labelledby");
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
