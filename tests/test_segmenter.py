"""jieba started from the build's pickle segments exactly as jieba started on its own."""

import jieba
import pytest

from resdoc.sitegen import private, segmenter

pytestmark = pytest.mark.upstream

TEXT = "残差连接让梯度沿快捷路径直接流回浅层，缓解了深层网络的退化问题。"


def test_same_dictionary_and_words_as_jiebas_own_start(tmp_path):
    own = jieba.Tokenizer()
    own.initialize()
    first, second = jieba.Tokenizer(), jieba.Tokenizer()
    segmenter.start(first, tmp_path)  # makes the pickle
    [pickle] = tmp_path.glob("jieba-*.pickle")
    segmenter.start(second, tmp_path)  # reads it
    for started in (first, second):
        assert not private.jieba_is_plain(started)
        assert private.jieba_dictionary(started) == private.jieba_dictionary(own)
        assert list(started.cut(TEXT)) == list(own.cut(TEXT))
    assert len(list(own.cut(TEXT))) > 5


def test_a_tokenizer_with_its_own_dictionary_is_left_to_jieba(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("残差 10\n", "utf-8")
    custom = jieba.Tokenizer(str(words))
    segmenter.start(custom, tmp_path)
    assert not custom.initialized and not list(tmp_path.glob("jieba-*.pickle"))


def test_a_damaged_pickle_is_made_again(tmp_path):
    segmenter.start(jieba.Tokenizer(), tmp_path)
    [pickle] = tmp_path.glob("jieba-*.pickle")
    good = pickle.read_bytes()
    pickle.write_bytes(good[: len(good) // 2])
    again = jieba.Tokenizer()
    segmenter.start(again, tmp_path)
    assert not private.jieba_is_plain(again) and pickle.read_bytes() == good
