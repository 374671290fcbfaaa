"""The renderers of HTML: the matrix, a behaviour's story, the SDK-differences page, Markdown
as HTML for the site; every page is built by page.py, the one shell with the one stylesheet
and the one escape helper (the site's own pages too)."""
