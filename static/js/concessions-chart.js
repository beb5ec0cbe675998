// The negotiation page's step charts (no inline script: the CSP forbids it): each
// <canvas data-steps="ID"> is drawn from the JSON in <script type="application/json" id="ID">,
// one stepped line per side, carried forward between its own offers (the page gives each point its value).
(function () {
  "use strict";

  const colours = { federal: "#b91c1c", provinces: "#1d4ed8" };
  // Figures as the page's language writes them (10 000 $ and 15 % in French), as the fiscal charts do.
  const locale = (document.documentElement.lang || "en") + "-CA";
  const formats = {
    money: new Intl.NumberFormat(locale, { style: "currency", currency: "CAD", maximumFractionDigits: 0 }),
    compact: new Intl.NumberFormat(locale, {
      style: "currency", currency: "CAD", notation: "compact", maximumFractionDigits: 1 }),
    percent: new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }),
  };

  function draw(canvas) {
    if (!window.Chart || window.Chart.getChart(canvas)) {
      return;
    }
    const source = document.getElementById(canvas.dataset.steps);
    if (!source) {
      return;
    }
    const data = JSON.parse(source.textContent);
    new window.Chart(canvas, {
      type: "line",
      data: {
        labels: data.labels,
        datasets: data.series.map(function (series) {
          return {
            label: series.label,
            // Values arrive as exact strings; numbers are needed only to draw the steps.
            data: series.values.map(function (value) { return value === null ? null : Number(value); }),
            borderColor: colours[series.key] || "#64748b",
            backgroundColor: colours[series.key] || "#64748b",
            stepped: "before",
            // Each value is carried forward already (negotiations.views.deal): a gap is a term the side's offer
            // does not have, and the line stops there.
            spanGaps: false,
          };
        }),
      },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        // From zero: an axis starting at the lowest offer made a small move look like a large one.
        scales: { y: { beginAtZero: true, ticks: { callback: function (value) {
          return (data.format === "percent" ? formats.percent : formats.compact).format(value);
        } } } },
        plugins: {
          legend: { position: "bottom" },
          tooltip: { callbacks: { label: function (item) {
            const written = (data.format === "percent" ? formats.percent : formats.money).format(item.parsed.y);
            return item.dataset.label + (locale.startsWith("fr") ? "\u00a0: " : ": ") + written;
          } } },
        },
      },
    });
  }

  function drawAll(root) {
    root.querySelectorAll("canvas[data-steps]").forEach(draw);
  }

  document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
  document.addEventListener("htmx:afterSettle", function (event) { drawAll(event.target); });
}());
