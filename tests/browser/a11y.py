"""Accessibility helpers for the browser tests: axe-core (shipped inside axe-playwright-python,
pinned in requirements.txt) and the checks axe cannot make (reflow, contrast of borders).

Nothing here fetches anything: the axe script is read from the installed package.
"""

from __future__ import annotations

# The WCAG 2.1 AA rules, and nothing else (best practices are not the standard).
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# The language prefixes every page is checked under. English lives at the bare addresses; when
# French lands at /fr/..., add "/fr" here and every axe and reflow check runs in both languages.
LANGUAGE_PREFIXES = ["", "/fr"]

# Reflow (WCAG 1.4.10): content must fit 320 CSS px without scrolling sideways.
NARROW = 320
WIDE = 1280


# And these rules besides, which axe files under best practices: landmark-unique (two landmarks of one
# role with the same name, or none, are the same entry in a screen reader's list of landmarks; a table's
# scrolling frame named like the section around it was the usual way to get there).
EXTRA_RULES = ["landmark-unique"]


# axe keeps some WCAG rules "experimental" and off by default; label-content-name-mismatch (2.5.3,
# "the accessible name starts with the visible text") is one. Every rule carrying one of the tags
# above is run, experimental or not, with the extra rules.
RUN_AXE_JS = """async ([tags, extra]) => {
  const ids = axe.getRules().filter((rule) => rule.tags.some((tag) => tags.includes(tag)) || extra.includes(rule.ruleId))
                            .map((rule) => rule.ruleId);
  const results = await axe.run(document, {runOnly: {type: 'rule', values: ids}, resultTypes: ['violations']});
  return results.violations;
}"""


def axe_violations(page, rules: list[str] | None = None) -> list[dict]:
    """axe-core's violations of the WCAG 2.1 A and AA rules and of EXTRA_RULES on the page as it is now (any
    impact); or, given `rules`, of those rules alone."""
    from axe_playwright_python.base import AXE_SCRIPT

    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    if rules is not None:
        return page.evaluate(RUN_AXE_JS, [[], rules])
    return page.evaluate(RUN_AXE_JS, [WCAG_TAGS, EXTRA_RULES])


def describe_violations(where: str, violations: list[dict]) -> str:
    """One readable paragraph per violation: rule, impact, help, and each offending node."""
    lines = []
    for violation in violations:
        lines.append(f"{where}: {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:8]:
            target = " ".join(str(part) for part in node["target"])
            lines.append(f"    at {target}: {node['html'][:160]}")
            summary = node.get("failureSummary", "").replace("\n", " ")
            if summary:
                lines.append(f"      {summary[:300]}")
        if len(violation["nodes"]) > 8:
            lines.append(f"    … and {len(violation['nodes']) - 8} more nodes")
    return "\n".join(lines)


SCROLL_WIDTH_JS = "() => document.documentElement.scrollWidth"

# What sticks out past the viewport's right edge: the culprits when a page scrolls sideways.
OVERFLOWING_JS = """(limit) => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.right > limit + 0.5 && box.width > 0) {
      let scroller = el.parentElement, clipped = false;
      while (scroller && scroller !== document.body) {
        const style = getComputedStyle(scroller);
        if (/(auto|scroll|hidden|clip)/.test(style.overflowX)) { clipped = true; break; }
        scroller = scroller.parentElement;
      }
      if (!clipped) out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
        ' right=' + Math.round(box.right));
    }
  }
  return out.slice(0, 12);
}"""


def sideways_overflow(page, width: int) -> tuple[int, list[str]]:
    """The document's scroll width and, when it exceeds `width`, the elements that stick out."""
    scroll_width = page.evaluate(SCROLL_WIDTH_JS)
    culprits = page.evaluate(OVERFLOWING_JS, width) if scroll_width > width else []
    return scroll_width, culprits


# Words shown split across two lines ("Ju/ris/dic/tion"): what a box narrower than its longest word looks
# like, a table's column or a flex item squeezed by its neighbours. Header rows hidden from sight (a phone's
# stacked tables) and code are skipped.
BROKEN_WORDS_JS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const parent = node.parentElement;
    if (parent.closest('pre, code, .visually-hidden, [hidden], script, style')) continue;
    const head = parent.closest('thead');
    if (head && head.getBoundingClientRect().height <= 2) continue;
    const words = /[\\p{L}'\u2019]{4,}/gu;
    let match;
    while ((match = words.exec(node.data))) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.top)));
      if (lines.size > 1) out.push(match[0]);
    }
  }
  return [...new Set(out)].slice(0, 12);
}"""


def words_broken_across_lines(page) -> list[str]:
    """The words (four letters or more) that the page's main region breaks across lines."""
    return page.evaluate(BROKEN_WORDS_JS)


# Contrast of a control's border against the page (WCAG 1.4.11, non-text contrast), computed from
# the computed styles: sRGB relative luminance as WCAG defines it.
BORDER_CONTRAST_JS = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const parts = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return {r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1};
  };
  const backgroundOf = (node) => {
    // The first opaque background up the tree (white when none is set).
    let layers = [];
    while (node) {
      const c = parse(getComputedStyle(node).backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
      node = node.parentElement;
    }
    let base = {r: 255, g: 255, b: 255};
    for (const c of layers.reverse()) {
      base = {r: c.r * c.a + base.r * (1 - c.a), g: c.g * c.a + base.g * (1 - c.a), b: c.b * c.a + base.b * (1 - c.a)};
    }
    return base;
  };
  const luminance = (c) => {
    const ch = [c.r, c.g, c.b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
  };
  const style = getComputedStyle(el);
  const outside = backgroundOf(el.parentElement);
  let border = parse(style.borderTopColor);
  if (border.a < 1) {
    border = {r: border.r * border.a + outside.r * (1 - border.a), g: border.g * border.a + outside.g * (1 - border.a),
              b: border.b * border.a + outside.b * (1 - border.a)};
  }
  const [hi, lo] = [luminance(border), luminance(outside)].sort((x, y) => y - x);
  return {ratio: (hi + 0.05) / (lo + 0.05), border: style.borderTopColor, width: style.borderTopWidth,
          background: outside};
}"""


def border_contrast(page, selector: str) -> dict | None:
    return page.evaluate(BORDER_CONTRAST_JS, selector)
