// The fiscal pages' behaviour, with no inline script (the CSP forbids it):
// - draws each <canvas data-chart-data="ID"> from the JSON in <script type="application/json" id="ID">,
//   again after every htmx swap (old charts are destroyed before their canvas goes away);
// - lets htmx swap 400 answers into regions marked data-swap-errors, so a refused scenario shows its message;
// - closes the explanation panel without a page load, or with Escape (the focus back on the link that opened it),
//   and while it is open keeps what has the focus clear of it (the page's scroll padding is the panel's height).
(function () {
  "use strict";

  const locale = (document.documentElement.lang || "en") + "-CA";
  const full = new Intl.NumberFormat(locale, { style: "currency", currency: "CAD", maximumFractionDigits: 0 });
  const compact = new Intl.NumberFormat(locale, {
    style: "currency", currency: "CAD", notation: "compact", maximumFractionDigits: 1,
  });

  function colour(key) {
    return getComputedStyle(document.documentElement).getPropertyValue("--chart-" + key).trim() || "#64748b";
  }

  function draw(canvas) {
    if (!window.Chart || window.Chart.getChart(canvas)) {
      return;
    }
    const source = document.getElementById(canvas.dataset.chartData);
    if (!source) {
      return;
    }
    const data = JSON.parse(source.textContent);
    new window.Chart(canvas, {
      type: "bar",
      data: {
        labels: data.labels,
        datasets: data.series.map(function (series) {
          return {
            label: series.label,
            // Money arrives as exact strings; numbers are needed only to draw the bars.
            data: series.values.map(Number),
            backgroundColor: colour(series.key),
            stack: data.stacked ? "all" : series.key,
          };
        }),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          x: { stacked: data.stacked, grid: { display: false } },
          y: { stacked: data.stacked, beginAtZero: true, ticks: { callback: function (value) { return compact.format(value); } } },
        },
        plugins: {
          legend: { position: "bottom" },
          tooltip: {
            callbacks: {
              title: function (items) { return items.length ? data.names[items[0].dataIndex] : ""; },
              label: function (item) { return data.series[item.datasetIndex].label_colon + " " + full.format(item.parsed.y); },
            },
          },
        },
      },
    });
  }

  function drawAll(root) {
    if (root.matches && root.matches("canvas[data-chart-data]")) {
      draw(root);
    }
    if (root.querySelectorAll) {
      root.querySelectorAll("canvas[data-chart-data]").forEach(draw);
    }
  }

  function destroyAll(root) {
    if (!window.Chart || !root.querySelectorAll) {
      return;
    }
    root.querySelectorAll("canvas[data-chart-data]").forEach(function (canvas) {
      const chart = window.Chart.getChart(canvas);
      if (chart) {
        chart.destroy();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
  document.addEventListener("htmx:load", function (event) { drawAll(event.target); });

  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    if (detail.xhr.status === 400 && detail.target.closest("[data-swap-errors]")) {
      // The answer is the region with a message naming the field at fault: show it.
      detail.shouldSwap = true;
      detail.isError = false;
    }
    if (detail.shouldSwap) {
      destroyAll(detail.target);
    }
  });

  let opener = null;

  function fitAroundExplanation() {
    const region = document.getElementById("explanation");
    const height = region && region.childElementCount ? region.offsetHeight : 0;
    document.documentElement.style.scrollPaddingBottom = height ? height + 16 + "px" : "";
  }

  function closeExplanation(region) {
    region.replaceChildren();
    fitAroundExplanation();
    if (opener && document.contains(opener)) {
      opener.focus();
    }
  }

  document.addEventListener("click", function (event) {
    const link = event.target.closest(".explain-link, .explain-num");
    if (link) {
      opener = link;
    }
    const close = event.target.closest("[data-close-explanation]");
    const region = close && close.closest(".explanation");
    if (region) {
      event.preventDefault();
      closeExplanation(region);
    }
  });

  document.addEventListener("keydown", function (event) {
    const region = document.getElementById("explanation");
    if (event.key === "Escape" && region && region.childElementCount) {
      closeExplanation(region);
    }
  });

  document.addEventListener("htmx:afterSettle", fitAroundExplanation);
  window.addEventListener("resize", fitAroundExplanation);
})();
