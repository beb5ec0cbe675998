// The offer form's live validation and preview (no inline script: the CSP forbids it).
// 1. Remember which fields the person has touched, in the hidden _touched input, so the
//    server only reports errors about those while they are still typing.
// 2. After the error slots are swapped in, mark the fields they describe as (in)valid.
// 3. Once the person saves, send no more live requests: leaving the page would abort them.
// 4. The preview is posted the terms that are filled in: the server reads a field left out
//    as it reads one left empty, and the terms are posted again on every change.
//    perf: about 20 of 42 fields fewer per post; bench/run "preview POST" (0.48 -> 0.54-0.63 of /healthz).
// 5. While the terms do not add up, the preview keeps the last good figures below the problems,
//    greyed and labelled as out of date (the server keeps nothing between previews: it is a read).
(function () {
  "use strict";

  let pressing = false;  // the save button is being pressed
  let submitted = false;  // the form is on its way to the server
  let lastFigures = null;  // a copy of the last figures the preview showed

  function inOfferForm(element) {
    return element instanceof Element && element.closest("#offer-form") !== null;
  }

  function touch(event) {
    const field = event.target;
    const form = field.form;
    if (!form || form.id !== "offer-form" || !field.name || field.name.startsWith("_")) {
      return;
    }
    const store = form.querySelector("[data-touched]");
    if (!store) {
      return;
    }
    const names = new Set(store.value ? store.value.split(",") : []);
    names.add(field.name);
    store.value = Array.from(names).join(",");
  }

  function syncValidity() {
    const form = document.getElementById("offer-form");
    if (!form) {
      return;
    }
    form.querySelectorAll(".field-errors[id]").forEach(function (slot) {
      const invalid = slot.textContent.trim() !== "";
      form.querySelectorAll("[aria-describedby~='" + slot.id + "']").forEach(function (control) {
        if (control.tagName === "FIELDSET") {
          return;
        }
        if (invalid) {
          control.setAttribute("aria-invalid", "true");
        } else {
          control.removeAttribute("aria-invalid");
        }
      });
      const wrapper = slot.closest(".form-field");
      if (wrapper) {
        wrapper.classList.toggle("field-error", invalid);
      }
    });
  }

  document.addEventListener("input", touch);
  document.addEventListener("change", touch);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt && event.detail.elt.hasAttribute("data-live-validation")) {
      syncValidity();
    }
  });

  // Pressing the save button blurs the field being typed in, whose "change" would start a
  // request that the page then abandons: stop live requests from the press on. A press that
  // does not end in saving (the pointer slides off the button) lets them resume.
  document.addEventListener("pointerdown", function (event) {
    if (event.target instanceof Element && event.target.closest("#offer-form [type=submit]")) {
      pressing = true;
      window.setTimeout(function () { pressing = false; }, 1500);
    }
  }, true);
  document.addEventListener("submit", function (event) {
    if (event.target.id === "offer-form") {
      submitted = true;
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if ((pressing || submitted) && inOfferForm(event.detail.elt)) {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:configRequest", function (event) {
    if (!(event.detail.elt instanceof Element) || !event.detail.elt.matches("#offer-form .preview-panel")) {
      return;
    }
    const data = event.detail.formData;
    Array.from(new Set(data.keys())).forEach(function (name) {
      if (data.getAll(name).every(function (value) { return value === ""; })) {
        data.delete(name);
      }
    });
  });
  // 5. The last good figures. This runs on afterSwap, before a11y.js reads the status line on afterSettle.
  document.addEventListener("htmx:afterSwap", function (event) {
    const region = event.detail.target;
    if (!(region instanceof Element) || region.id !== "fiscal-preview") {
      return;
    }
    const figures = region.querySelector("[data-preview-figures]");
    if (figures) {
      lastFigures = figures.cloneNode(true);
      return;
    }
    const stale = region.querySelector("[data-preview-stale]");
    if (!stale || !lastFigures) {
      return;
    }
    const copy = lastFigures.cloneNode(true);
    copy.removeAttribute("data-preview-figures");
    // The copy's own status line would be read as current; its ids would be duplicated.
    copy.querySelectorAll("[data-preview-status]").forEach(function (element) { element.remove(); });
    copy.querySelectorAll("[id]").forEach(function (element) { element.removeAttribute("id"); });
    stale.querySelector("[data-preview-stale-figures]").appendChild(copy);
    stale.hidden = false;
    region.querySelectorAll("[data-preview-heading]").forEach(function (element) { element.remove(); });
    region.querySelectorAll("[data-preview-heading-stale]").forEach(function (element) { element.hidden = false; });
    region.querySelectorAll("[data-preview-status]").forEach(function (element) { element.remove(); });
    region.querySelectorAll("[data-preview-status-stale]").forEach(function (element) {
      element.removeAttribute("data-preview-status-stale");
      element.setAttribute("data-preview-status", "");
    });
  });
  window.addEventListener("pageshow", function () {
    pressing = false;
    submitted = false;
  });
})();
