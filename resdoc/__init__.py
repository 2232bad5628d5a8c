"""resdoc: residual connections, explained with code that runs.

The package holds the science of the site (models, measurements, figure style)
and the build-time machinery that runs ``examples/`` and fills the pages.
"""

__version__ = "0.1.0"
