"""The web edition (`make site`, tools/build_site.py), read as a reader meets it.

Builds the site from the committed notebooks (once for the module), serves build/site/ from a
local static server and drives every page in headless Chromium: no console errors and no request
that fails or leaves the machine, every image loads, every internal link and anchor resolves,
the table of contents lists every notebook, search finds a term from the middle of a notebook,
a reveal is folded until clicked, and math is typeset. At phone, tablet and desktop width the
menu, the page's contents and search open; no page is wider than a phone, and code fits the
column at 1280 px. Every notebook page links to its download and its source, no link names the
placeholder repository, and the site and its pages stay light. Screenshots go to
tests/artifacts/site/.
"""

import functools
import gzip
import html
import http.server
import json
import re
import subprocess
import sys
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest
from test_browser import CHROMIUM, CHROMIUM_ARGS, _require_browser

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import spoilers  # noqa: E402

SITE = ROOT / "build" / "site"
ARTIFACTS = ROOT / "tests" / "artifacts" / "site"
LESSONS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SOLUTIONS = sorted(p.stem for p in (ROOT / "notebooks" / "solutions").glob("*_solutions.ipynb"))

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site():
    build = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_site.py")], capture_output=True, text=True
    )
    assert build.returncode == 0, build.stdout + build.stderr[-4000:]
    handler = functools.partial(
        _QuietHandler, directory=str(SITE)
    )  # (a static server, as any host of the site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def browser(site):
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


def _pages():
    """Every page of the site (not the theme's own files in _static/)."""
    pages = (str(p.relative_to(SITE)) for p in SITE.rglob("*.html"))
    return sorted(p for p in pages if not p.startswith("_static/"))


class _Anchors(HTMLParser):
    """The ids of a page and the links it makes."""

    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])


@functools.cache
def _parse(rel):
    parser = _Anchors()
    parser.feed((SITE / rel).read_text())
    return parser


def test_every_internal_link_and_anchor_resolves(site):
    broken = []
    for rel in _pages():
        for href in _parse(rel).links:
            url = urlparse(href)
            if url.scheme or href.startswith("mailto:") or href.startswith("javascript:"):
                continue
            target = urljoin("/" + rel, url.path).lstrip("/") if url.path else rel
            target = unquote(target)
            if target.endswith("/") or target == "":
                target += "index.html"
            if not (SITE / target).is_file():
                broken.append(f"{rel}: {href} (no {target})")
            elif url.fragment and target.endswith(".html"):
                if unquote(url.fragment) not in _parse(target).ids:
                    broken.append(f"{rel}: {href} (no #{url.fragment} in {target})")
    assert not broken, "\n".join(broken[:40])


def test_the_table_of_contents_lists_every_notebook(browser, site):
    page = browser.new_page()
    page.goto(site + "index.html")
    nav = page.locator("nav.bd-links").inner_html()
    missing = [n for n in LESSONS + [f"solutions/{s}" for s in SOLUTIONS] if f"{n}.html" not in nav]
    assert not missing, f"the table of contents lacks {missing}"
    _shot(page, "landing")
    page.close()


def _listen(page, rel, site, problems):
    """Note on `problems` what goes wrong while the page loads."""

    def console(message):
        if message.type == "error":
            problems.append(f"{rel}: console: {message.text}")

    def request(req):
        if not (req.url.startswith(site) or req.url.startswith("data:")):
            problems.append(f"{rel}: leaves the machine: {req.url}")

    page.on("console", console)
    page.on("pageerror", lambda error: problems.append(f"{rel}: error: {error}"))
    page.on("requestfailed", lambda req: problems.append(f"{rel}: failed request {req.url}"))
    page.on("request", request)
    page.on(
        "response",
        lambda r: r.status >= 400 and problems.append(f"{rel}: {r.status} for {r.url}"),
    )


def test_every_page_loads_cleanly(browser, site):
    problems = []
    for rel in _pages():
        page = browser.new_page()
        _listen(page, rel, site, problems)
        page.goto(site + rel, wait_until="load")
        broken = page.evaluate(
            "[...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
        )
        problems += [f"{rel}: image does not load: {src[:80]}" for src in broken]
        page.close()
    assert not problems, "\n".join(problems[:40])


def test_search_finds_a_term_from_the_middle_of_a_notebook(browser, site):
    page = browser.new_page()
    # (08's "interpolates": in its section 1, far from the title)
    page.goto(site + "search.html?q=interpolates")
    page.wait_for_selector("#search-results li", timeout=30_000)
    results = page.locator("#search-results").inner_html()
    assert "08_wgan_gp.html" in results
    snippet = page.locator("#search-results li p.context").first.inner_text()
    assert "real. In this notebook you will" in snippet, f"the snippet is not the page's: {snippet}"
    _shot(page, "search")
    page.close()


# A reveal's output (folded by myst-nb for the tag hide-output), and the explanation after it (a
# <details> in the notebook's Markdown): each closed until the reader clicks it.
FOLDS = {
    "reveal": (
        "01_first_tape.html",
        ".tag_hide-output details.hide",
        ".cell_output",
        "what happened",
    ),
    "explanation": ("04_persistent_tapes.html", "section details:not(.hide)", "p", "RuntimeError"),
}


@pytest.mark.parametrize("kind", sorted(FOLDS))
def test_a_fold_stays_closed_until_clicked(browser, site, kind):
    page_name, fold_selector, inside, expected = FOLDS[kind]
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(site + page_name)
    fold = page.locator(fold_selector).first
    assert fold.count(), f"no folded {kind} on {page_name}"
    fold.scroll_into_view_if_needed()
    answer = fold.locator(inside).first
    assert not answer.is_visible(), f"the {kind} shows before the click"
    _shot(page, f"{kind}-folded")
    fold.locator("summary").click()
    assert answer.is_visible()
    assert expected in answer.inner_text()
    _shot(page, f"{kind}-opened")
    page.close()


def test_math_is_typeset_and_figures_are_sharp(browser, site):
    page = browser.new_page(viewport={"width": 1300, "height": 900}, device_scale_factor=2)
    page.goto(site + "08_wgan_gp.html")
    page.wait_for_function("document.querySelectorAll('mjx-container mjx-math').length > 0")
    focusable = page.evaluate("document.querySelectorAll('mjx-container[tabindex]').length")
    assert focusable == 0, f"{focusable} formulas are stops for the Tab key"
    _shot(page, "08_wgan_gp", full_page=False)
    page.locator("img").first.scroll_into_view_if_needed()
    _shot(page, "08_wgan_gp-figure")
    page.close()


def _shot(page, name, full_page=False):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


# -- every width -----------------------------------------------------------------------------------
WIDTHS = {"phone": 390, "tablet": 768, "desktop": 1280}


def _visible(page, selector):
    return [b for b in page.locator(selector).all() if b.is_visible()]


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_menu_contents_and_search_open_at_every_width(browser, site, width):
    page = browser.new_page(viewport={"width": WIDTHS[width], "height": 844})
    page.goto(site + "05_higher_order.html")
    page.wait_for_load_state("load")
    if WIDTHS[width] < 992:  # the menu is a drawer: open it and follow a link in it
        _visible(page, ".primary-toggle")[0].click()
        drawer = page.locator("#pst-primary-sidebar-modal")
        link = drawer.get_by_role("link", name="06 · Controlling the recording")
        link.wait_for(state="visible", timeout=5_000)
        _shot(page, f"menu-{width}")
        link.click()
        page.wait_for_url("**/06_controlling_the_recording.html")
        page.go_back()
        page.wait_for_load_state("load")
    else:  # the menu is beside the page; its button hides it
        assert page.locator("#pst-primary-sidebar nav.bd-links").is_visible()
    contents = page.locator(".bd-toc-nav a", has_text="Newton")
    if not contents.first.is_visible():
        _visible(page, ".secondary-toggle")[0].click()
        page.locator("#pst-secondary-sidebar-modal").get_by_role(
            "link", name="Newton"
        ).first.wait_for(state="visible", timeout=5_000)
        page.keyboard.press("Escape")
    _visible(page, ".search-button__button")[0].click()
    page.locator("#pst-search-dialog input[type=search]").wait_for(state="visible", timeout=5_000)
    page.close()


def test_no_page_is_wider_than_a_phone_and_code_fits_at_1280(browser, site):
    wide, blocks, overflowing = [], 0, []
    for rel in _pages():
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(site + rel)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide.append(f"{rel}: {width} px")
        page.set_viewport_size({"width": 1280, "height": 900})
        n, over = page.evaluate(
            """() => { const pres = [...document.querySelectorAll('article pre')];
                const over = pres.filter(p => p.scrollWidth > p.clientWidth + 1);
                return [pres.length, over.length]; }"""
        )
        blocks += n
        overflowing += [rel] * over
        page.close()
    assert not wide, f"wider than a phone: {wide}"
    assert len(overflowing) <= 0.05 * blocks, f"{len(overflowing)} of {blocks} code blocks overflow"


# -- links and weight ------------------------------------------------------------------------------
def test_every_notebook_page_has_its_download_and_source_and_no_placeholder_link(site):
    missing, placeholders = [], []
    for rel in _pages():
        links = _parse(rel).links
        placeholders += [f"{rel}: {href}" for href in links if "/OWNER/" in href]
    for name in LESSONS + [f"solutions/{s}" for s in SOLUTIONS]:
        links = _parse(f"{name}.html").links
        wanted = [f"notebooks/{name}.ipynb", f"_sources/{name}.ipynb"]
        missing += [f"{name}: {w}" for w in wanted if not any(h.endswith(w) for h in links)]
    assert not placeholders, placeholders
    assert not missing, missing
    downloaded = json.loads((SITE / "notebooks" / "01_first_tape.ipynb").read_text())
    reveals = [c for c in downloaded["cells"] if "hide-output" in c["metadata"].get("tags", [])]
    assert reveals and not any(c["outputs"] for c in reveals), "the download is not the learner's"


PAGE_LIMIT = 1_500_000  # bytes a lesson page makes the browser fetch, as a host sends them (gzip)
SITE_LIMIT = 20_000_000  # bytes of the whole site on disk


def test_the_site_and_its_pages_are_light(browser, site):
    on_disk = sum(p.stat().st_size for p in SITE.rglob("*") if p.is_file())
    assert on_disk <= SITE_LIMIT, f"the site weighs {on_disk:,} bytes"
    heavy = []
    for name in LESSONS:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        bodies = []
        page.on("response", lambda r, bodies=bodies: bodies.append(r.body() if r.ok else b""))
        page.goto(site + f"{name}.html", wait_until="networkidle")
        sent = sum(len(gzip.compress(body)) for body in bodies)
        if sent > PAGE_LIMIT:
            heavy.append(f"{name}: {sent:,} bytes")
        assert not any(b"fontawesome.js" in body for body in bodies[:1])
        page.close()
    assert not heavy, heavy


# -- math as written -------------------------------------------------------------------------------
# Prose with math taken out: a `$` or a LaTeX command left there is math that did not parse.
_PROSE_LEFT_AS_TEX = r"""() => {
    const left = [];
    const prose = 'article p, article li, article td, article th, article h1, article h2, '
        + 'article h3, article summary, article dd';
    for (const el of document.querySelectorAll(prose)) {
        const copy = el.cloneNode(true);
        copy.querySelectorAll('code, pre, mjx-container, .math, script').forEach(x => x.remove());
        if (/\$|\\[a-zA-Z]+/.test(copy.textContent)) left.push(copy.textContent.slice(0, 100));
    }
    return left;
}"""
# A formula that holds a sentence: `$` paired with the wrong `$` sets prose as italic math.
_WORDS = re.compile(r"(?<!\\)\b[a-z]{3,}\b ")
_MATH = re.compile(r'class="math notranslate nohighlight">(.*?)</(?:span|div)>', re.S)
_TEXT_IN_MATH = re.compile(r"\\(?:text|texttt|mathrm|operatorname|mathbb|mathcal)\{[^}]*\}")


def test_math_is_as_written_no_stray_dollar_or_latex_in_prose(browser, site):
    problems = []
    for rel in _pages():
        page = browser.new_page()
        page.goto(site + rel)
        page.wait_for_load_state("load")
        problems += [f"{rel}: {text!r}" for text in page.evaluate(_PROSE_LEFT_AS_TEX)]
        for tex in _MATH.findall((SITE / rel).read_text()):
            if len(_WORDS.findall(_TEXT_IN_MATH.sub("", html.unescape(tex)))) >= 3:
                problems.append(f"{rel}: prose set as math: {tex[:100]!r}")
        page.close()
    assert not problems, "\n".join(problems[:20])


# -- no answer before the guess --------------------------------------------------------------------
def test_no_answer_shows_before_its_fold_is_opened(browser, site):
    """For every predict-then-run prompt: what its reveal prints (folded) is not in plain sight
    in any output before the next prompt (tools/spoilers.py says what gives an answer away)."""
    shown = []
    for name in LESSONS:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(site + f"{name}.html")
        cells = page.locator("div.cell").evaluate_all(
            "cells => cells.map(c => [c.classList.contains('tag_hide-output'), "
            "c.querySelector('.cell_output')?.textContent || '', "
            "[...c.querySelectorAll('.cell_output')].filter(o => o.checkVisibility())"
            ".map(o => o.innerText).join('')])"
        )
        reveals = 0
        for i, (folded, output, _) in enumerate(cells):
            if not (folded and "what happened:" in output):
                continue
            reveals += 1
            patterns = spoilers.answers(output)
            for _, later_output, visible in cells[i + 1 :]:
                if "what happened:" in later_output:
                    break
                found = [m.group(0) for p in patterns if (m := re.search(p, visible))]
                shown += [f"{name}: {visible[:60]!r} shows {found}"] if found else []
        assert reveals >= 2 or name == "00_index", f"{name}: {reveals} folded reveals"
        page.close()
    assert not shown, "\n".join(shown)


def test_the_tensorflow_page_shows_names_as_code_and_the_course_run(site):
    page = (SITE / "tensorflow.html").read_text()
    assert "<strong>rmul</strong>" not in page and "__rmul__" in page
    assert "The course on TensorFlow" in page and "code cells" in page


def test_solution_pages_are_titled_with_their_own_number(site):
    for name in SOLUTIONS:
        title = re.search(r"<h1>(.*?)<", (SITE / "solutions" / f"{name}.html").read_text()).group(1)
        assert title.startswith(f"Solutions to {name[:2]} "), title


# -- figures ---------------------------------------------------------------------------------------
def test_every_figure_is_sharp_described_and_opens_full_size(browser, site):
    """At a device pixel ratio of 2, every figure has at least two image pixels per CSS pixel,
    an alt text that says what it shows (not its file name), and a link to itself."""
    problems = []
    for name in LESSONS:
        page = browser.new_page(viewport={"width": 1280, "height": 900}, device_scale_factor=2)
        page.goto(site + f"{name}.html", wait_until="load")
        for fig in page.locator("article .cell_output img").evaluate_all(
            "imgs => imgs.map(i => [i.naturalWidth, i.getBoundingClientRect().width, i.alt,"
            " i.closest('a.image-reference')?.href === i.src])"
        ):
            natural, shown, alt, linked = fig
            if natural < 1.95 * shown:
                problems.append(f"{name}: {natural} px shown at {shown:.0f}: {alt[:40]!r}")
            if len(alt) < 20 or alt.endswith(".png"):
                problems.append(f"{name}: alt text {alt!r}")
            if not linked:
                problems.append(f"{name}: a figure with no link to its full size")
        page.close()
    assert not problems, "\n".join(problems[:30])


def test_the_error_stream_reads_as_one(browser, site):
    page = browser.new_page()
    page.goto(site + "03_what_gets_watched.html")
    stderr = page.locator(".cell_output .output.stderr").first
    assert stderr.count(), "no stderr output on 03"
    border = stderr.evaluate("e => getComputedStyle(e).borderLeftColor")
    assert border == "rgb(211, 47, 47)", f"stderr looks like stdout (border {border})"
    page.close()
