"""Sphinx settings for the web edition of the course (`make site`).

`tools/build_site.py` copies the committed, executed notebooks into a staging folder with the
pages generated at build time (the landing page, the page on minitape and TensorFlow), then runs
Sphinx on it with these settings. Nothing is executed: the pages show the saved outputs.
"""

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

# -- math without a network: MathJax 3 (SVG output: no web fonts to load), copied from the
# sphinx-mathjax-offline package by tools/build_site.py ---------------------------------------
mathjax_path = "mathjax/tex-svg.js"

# -- the book theme, offline ---------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_title = "minitape"
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"  # (a page without one makes the browser ask for /favicon.ico)
html_css_files = ["course.css"]
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": True,
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "navigation_with_keys": False,
    "article_header_end": ["binder-link"],
}
html_sidebars = {"**": ["navbar-logo", "sbt-sidebar-nav.html"]}  # (search: in the header)
templates_path = ["_templates"]
html_context = {"default_mode": "light"}
html_show_sourcelink = False
html_last_updated_fmt = None
