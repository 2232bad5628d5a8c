"""jieba, the Chinese word segmenter behind the search index, started from the build's cache.

Material's search plugin segments Chinese text with jieba, whose start-up loads a prefix
dictionary of about 500,000 words from a ``marshal`` file in the temp folder. Loading that
file is the largest single step of a warm build (over a second here), while the same
dictionary loads from a ``pickle`` in about a quarter of the time:
``python benchmarks/jieba_start.py`` measures both. So the build keeps the dictionary as a
pickle in its cache and hands it to jieba before the search plugin starts it.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from pathlib import Path

import jieba

from resdoc.sitegen.examples import installed_versions


def start(tokenizer: jieba.Tokenizer, cache: Path) -> None:
    """Give ``tokenizer`` its prefix dictionary from ``cache`` (made there on first use).

    Only jieba's bundled dictionary is kept: a tokenizer given another dictionary
    starts the usual way.
    """
    if tokenizer.initialized or tokenizer.dictionary is not None:
        return
    # the bundled dictionary ships inside the package, so its version names it
    version = installed_versions(("jieba",))["jieba"]
    path = cache / f"jieba-{version}-prefix-dict.pickle"
    try:
        tokenizer.FREQ, tokenizer.total = pickle.loads(path.read_bytes())
        tokenizer.initialized = True
        return
    except (OSError, pickle.UnpicklingError, EOFError, ValueError):
        pass  # not made yet, or damaged: made again below
    tokenizer.initialize()
    cache.mkdir(parents=True, exist_ok=True)
    # written whole, then renamed: a build running beside this one never reads half a file
    fd, partial = tempfile.mkstemp(dir=cache)
    with os.fdopen(fd, "wb") as file:
        pickle.dump((tokenizer.FREQ, tokenizer.total), file, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(partial, path)
