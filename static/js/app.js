// Small behaviours with no inline script (the CSP forbids it).
// Elements with data-autosubmit submit their form on change (used where htmx is absent).
document.addEventListener("change", function (event) {
  const el = event.target.closest("[data-autosubmit]");
  if (el && el.form && !el.form.hasAttribute("hx-get") && !el.form.hasAttribute("hx-post")) {
    el.form.requestSubmit();
  }
});
