"""The Markdown subset that REPORT.md uses, as HTML, with figures inlined."""

import base64

from bench.report import page

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
REPORT = """# Title with `code`

A paragraph
over two lines, **bold** and <tags>.

| a | b |
|---|---:|
| 1 | x < y |

- one item
  continued
- two

![a figure](fig.png)

![gone](missing.png)
"""


def test_each_block_becomes_its_element(tmp_path):
    (tmp_path / "fig.png").write_bytes(PNG)
    html = page.render(REPORT, tmp_path)
    assert "<h1>Title with <code>code</code></h1>" in html
    assert "<p>A paragraph over two lines, <strong>bold</strong> and &lt;tags&gt;.</p>" in html
    assert "<thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>x &lt; y</td></tr></tbody>" in html
    assert "<ul><li>one item continued</li><li>two</li></ul>" in html
    assert f'src="data:image/png;base64,{base64.b64encode(PNG).decode()}"' in html
    assert "(figure missing.png is missing)" in html


def test_write_puts_index_html_in_the_folder(tmp_path):
    path = page.write(tmp_path, "# Hi\n", title="t")
    assert path == tmp_path / "index.html" and path.read_text().startswith("<!DOCTYPE html>")
    assert [p.name for p in tmp_path.iterdir()] == ["index.html"]


def test_an_svg_figure_is_inlined_as_svg(tmp_path):
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'
    (tmp_path / "tour.svg").write_bytes(svg)
    html = page.render("![a tour](tour.svg)\n", tmp_path)
    assert f'src="data:image/svg+xml;base64,{base64.b64encode(svg).decode()}"' in html
