"""Sphinx settings for the web edition of the course (`make site`).

`tools/build_site.py` copies the committed, executed notebooks into a staging folder with the
pages generated at build time (the landing page, the page on minitape and TensorFlow), then runs
Sphinx on it with these settings. Nothing is executed: the pages show the saved outputs.
"""

import json
from pathlib import Path

project = "minitape: the gradient tape, from the inside"
author = "the minitape authors"
copyright = "the minitape authors; text and figures CC BY 4.0, code MIT"

extensions = ["myst_nb", "sphinx.ext.mathjax"]
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints"]

# -- notebooks: shown as committed, never executed here ----------------------------------------
nb_execution_mode = "off"
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3  # (links such as 03_what_gets_watched.ipynb#7-... resolve)
suppress_warnings = ["mystnb.unknown_mime_type"]

# -- math without a network: MathJax 3, copied from the sphinx-mathjax-offline package by
# tools/build_site.py: only the parts the course's formulas need (TeX with the AMS macros, HTML
# output with its fonts; about 0.8 MB, where a combined component weighs 2 MB). No MathJax menu:
# a formula is text to read, not a stop for the Tab key. --------------------------------------
mathjax_path = "mathjax/startup.js"
mathjax3_config = {
    "loader": {"load": ["input/tex-base", "[tex]/ams", "[tex]/noundefined", "output/chtml"]},
    "tex": {"packages": ["base", "ams", "noundefined"]},
    "options": {
        "enableMenu": False,
        "processHtmlClass": "tex2jax_process|mathjax_process|math|output_area",
    },
}

# -- the book theme, offline ---------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_title = "minitape"
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"  # (a page without one makes the browser ask for /favicon.ico)
html_css_files = ["course.css"]
html_js_files = ["course.js"]
html_theme_options = {
    "show_toc_level": 2,
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "navigation_with_keys": False,
    # the notebook's own links (download, source, Binder, Colab), then the theme's buttons
    # (search, the page's contents), which course.js makes work at every width
    "article_header_end": ["course-links", "article-header-buttons"],
    "use_download_button": False,
    "use_fullscreen_button": False,
}
html_sidebars = {"**": ["navbar-logo", "sbt-sidebar-nav.html"]}  # (search: in the header)
templates_path = ["_templates"]
# course_links: each notebook page's links, made by tools/build_site.py from pyproject.toml's
# [project.urls]
html_context = {
    "default_mode": "light",
    "course_links": json.loads(Path(__file__).with_name("course_links.json").read_text()),
}
html_show_sourcelink = False
html_last_updated_fmt = None
