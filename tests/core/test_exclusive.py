"""Where a statement says a value is the only one of its kind, and of what (`relation.exclusive.cues`)."""

import pytest

from memkeeper.core.relation.exclusive import cues
from memkeeper.core.subjects import side


def heads(text: str) -> list[str]:
    return [c.head for c in cues(side(text).content)]


@pytest.mark.parametrize(
    ("text", "head"),
    [
        ("Ben rides a Trek, his only bike.", "bicycl"),  # a synonym is read as its one word
        ("The user's only car is a Mazda 3.", "car"),
        ("Aiko is the sole maintainer.", "maintainer"),
        ("That is the one inbox anyone reads.", "inbox"),
        ("Travel rules: economy class only.", "class"),
        ("Luna is fed only Purina kibble.", "kibbl"),
        ("Traffic goes to Cloudflare and nothing else.", ""),
    ],
)
def test_a_cue_names_the_word_it_makes_exclusive(text, head):
    assert heads(text) == [head]


@pytest.mark.parametrize(
    "text",
    [
        "Deploys happen only after the tests pass.",  # a time, not a value
        "Refunds are given only if the box is unopened.",  # a condition
        "It is not only the API that is slow.",
        "Omar only reviewed the plan.",  # an action: no noun follows a determiner, no name is bound
        "Only one of the two printers works.",  # opens the sentence: nothing before it says a noun follows
        "The cottage has only a small garden.",
    ],
)
def test_an_only_that_limits_no_value_is_no_cue(text):
    assert heads(text) == []
