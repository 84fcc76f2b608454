"""The one stemmer (text.stem): the full form for contradiction detection, the plural-only form for retrieval."""

from __future__ import annotations

import pytest

from memkeeper.core.scoring import query_terms, term_set
from memkeeper.core.text import stem


@pytest.mark.parametrize(
    ("word", "full", "plural_only"),
    [
        ("deploys", "deploy", "deploy"),
        ("policies", "policy", "policy"),
        ("copied", "copy", "copied"),
        ("passes", "pass", "passe"),
        ("merge", "merg", "merge"),
        ("merging", "merg", "merging"),
        ("merged", "merg", "merged"),
        ("shipped", "ship", "shipped"),
        ("running", "run", "running"),
        ("agreed", "agreed", "agreed"),
        ("sent", "send", "sent"),
        ("uses", "use", "use"),
        ("status", "status", "status"),
        ("class", "class", "class"),
        ("bus", "bus", "bus"),
        ("node.js", "node.js", "node.j"),
        ("its", "its", "its"),
    ],
)
def test_stem(word: str, full: str, plural_only: str) -> None:
    assert stem(word) == full
    assert stem(word, plural_only=True) == plural_only


def test_retrieval_terms_fold_plurals_only() -> None:
    assert term_set("The deploys are merging") == {"deploy", "merging"}
    assert query_terms("deploys deploy policies") == ["deploy", "policy"]
