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

from resdoc.sitegen import private
from resdoc.sitegen.examples import installed_versions


def start(tokenizer: jieba.Tokenizer, cache: Path) -> None:
    """Give ``tokenizer`` its prefix dictionary from ``cache`` (made there on first use).

    Only jieba's bundled dictionary is kept: a tokenizer given another dictionary
    starts the usual way.
    """
    if not private.jieba_is_plain(tokenizer):
        return
    # the bundled dictionary ships inside the package, so its version names it
    version = installed_versions(("jieba",))["jieba"]
    path = cache / f"jieba-{version}-prefix-dict.pickle"
    try:
        dictionary = pickle.loads(path.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, ValueError):
        pass  # not made yet, or damaged: made again below
    else:
        private.jieba_start(tokenizer, dictionary)
        return
    tokenizer.initialize()
    cache.mkdir(parents=True, exist_ok=True)
    # written whole, then renamed: a build running beside this one never reads half a file
    fd, partial = tempfile.mkstemp(dir=cache)
    with os.fdopen(fd, "wb") as file:
        pickle.dump(private.jieba_dictionary(tokenizer), file, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(partial, path)
