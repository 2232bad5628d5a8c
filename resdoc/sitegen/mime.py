"""The kinds of output an example leaves in its executed notebook for the pages to read.

The cell runner writes them and ``notebooks.py`` reads them back. They live in a module of
their own because every example imports the cell runner's modules, and each module an
example imports is part of its cache key (``examples.py``): kept out of ``notebooks.py``,
an edit to how pages show a notebook does not run every example again.
"""

# The output a published figure leaves in the executed notebook; each language's page
# replaces it by an <img> of that language's SVG.
FIGURE_MIME = "application/vnd.resdoc.figure+json"
# A line an example said in both languages (``resdoc.bilingual.say``): each language's page
# prints its own.
TEXT_MIME = "application/vnd.resdoc.text+json"
