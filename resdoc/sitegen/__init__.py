"""Build-time machinery: run the examples (cached), and feed their output to MkDocs."""
