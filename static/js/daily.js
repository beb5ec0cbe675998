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
