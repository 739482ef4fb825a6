"""The HTML pieces every self-contained report is built from: the page style, the self-check
script, escaping, embedded PNG images, tables and explained sections.

The playtest report (:mod:`riven_env.playtest.report`), the analytics sections
(:mod:`riven_env.analytics.report_sections`) and the balance report
(:mod:`riven_env.balance.report`) share them, so every report looks and checks alike.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; color: #222;
       line-height: 1.45; padding: 0 1rem; }
h1 { margin-bottom: .2rem; } h2 { border-bottom: 2px solid #ddd; padding-bottom: .2rem;
       margin-top: 2.2rem; }
.meta { color: #555; } .explain { background: #f6f8fa; border-left: 4px solid #2f6db5;
       padding: .5rem .8rem; }
table { border-collapse: collapse; margin: .6rem 0; } th, td { border: 1px solid #ccc;
       padding: .25rem .6rem; text-align: right; } th { background: #eef; }
td.text, th.text { text-align: left; } .flag { color: #b00; font-weight: bold; }
img { max-width: 100%; display: block; margin: .6rem 0; }
"""

SELF_CHECK = """
<script>
window.addEventListener('load', function () {
  var images = Array.prototype.slice.call(document.querySelectorAll('img'));
  var check = {
    sections: Array.prototype.map.call(document.querySelectorAll('section'),
                                       function (s) { return s.id; }),
    images: images.length,
    decoded: images.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length
  };
  var pre = document.getElementById('report-check');
  pre.textContent = JSON.stringify(check);
});
</script>
"""


def escape(value: object) -> str:
    """``value`` as HTML text."""
    return html.escape(str(value))


def image(png: str, alt: str) -> str:
    """An ``<img>`` of a base64 PNG, embedded in the page."""
    return f'<img alt="{escape(alt)}" src="data:image/png;base64,{png}">'


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], text_columns: int = 1) -> str:
    """A ``<table>``; the first ``text_columns`` columns are left-aligned text."""
    head = "".join(
        f'<th class="text">{escape(h)}</th>' if k < text_columns else f"<th>{escape(h)}</th>"
        for k, h in enumerate(headers)
    )
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="text">{cell}</td>' if k < text_columns else f"<td>{cell}</td>"
            for k, cell in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def section(section_id: str, title: str, explanation: str, body: str) -> str:
    """A ``<section>``: its title, its body, then its plain-language explanation."""
    return (
        f'<section id="{section_id}"><h2>{escape(title)}</h2>{body}'
        f'<p class="explain">{explanation}</p></section>'
    )
