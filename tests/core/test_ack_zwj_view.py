"""Defects of an exploratory pass: pure acknowledgements of 16 characters or more were stored as memories; titles lost
their zero width joiners and non-joiners (a Persian word split in two, an emoji family taken apart); a multi-line
statement held in a conflict wrote its own sections and headings into CONFLICTS.md."""

from __future__ import annotations

from datetime import timedelta

import pytest
from markdown_it import MarkdownIt

from memkeeper.core.pagefmt import parse_entry
from tests.conftest import T0

# --- acknowledgements --------------------------------------------------------------------------------------------

ACKNOWLEDGEMENTS = [
    "Sounds good, thanks!",
    "Okay, sounds good to me.",
    "Got it, thank you very much.",
    "ok ok ok ok ok ok ok",
    "Thanks for the help!",
    "That’s great, thanks again!",
    "Yes, that's fine with me.",
    "Okay, I will do that then.",
    "Alright, makes sense, thanks.",
    "Hi there, thanks a lot!",
    "No worries at all, cheers!",
    "Understood, will do. 👍",
    "LGTM, thanks for the help.",
    "Much appreciated, thank you!",
    "Yep, sounds good to me, thanks a lot!",
    "Okay, Thanks, Sounds Good!",  # capitalised inside the sentence, and words of an acknowledgement all the same
]

# Facts that use the words of an acknowledgement: each is a memory.
FACTS = [
    "OK to deploy on Fridays.",
    "Thanks to Ana the build is green.",
    "Sounds good to Priya: ship Monday.",
    "Ok, Will is with May.",  # names that the word lists read as "will" and "may"
    "Thanks, Priya, that works.",
    "Got it: the port is 8443.",
    "Yes, use Postgres 16.",
    "No meetings on Wednesdays.",
    "Okay, the deadline is Friday.",
    "Thanks, I prefer tea over coffee.",
    "Sounds good, we go with option B.",
    "No, the answer is 42.",
    "Fine, use the staging cluster.",
    "Done: migrated the billing DB.",
    "We have a problem with the VPN.",
    "They will help us with the audit.",
]


# Chinese, Japanese and Korean: a letter says about what three English characters do, and acknowledgements are
# found without spaces between words. Russian, Hebrew, Arabic, Hindi: a short fact needs no "is".
WIDE_FACTS = [
    "用户喜欢喝绿茶，不喝咖啡。",  # the user likes green tea, not coffee (12 letters: dropped as "under 16")
    "我的爱好是游泳",  # my hobby is swimming ("好", a word of "好的", inside a word)
    "私はベジタリアンです",  # I am a vegetarian
    "服务器在柏林的机房",  # the server is in the Berlin machine room
    "好的，服务器在柏林。",  # an acknowledgement, then a fact
    "서버는 베를린에 있어요",  # the server is in Berlin (Korean)
    "山姆吃素。",  # Sam eats no meat (four letters)
    "샘은 비건.",  # Sam is vegan (Korean: two words, the particle joined)
    # Languages that need no "is": two words say it
    "Сэм — веган.",
    "Аня аллергик.",
    "סאם טבעוני.",
    "سام نباتي.",
    "सैम शाकाहारी है।",  # Hindi (its vowel signs are no \w: one word each all the same)
]
WIDE_ACKNOWLEDGEMENTS = [
    "好的，谢谢！",
    "非常感谢你的帮助",
    "ありがとうございます。",
    "了解しました。ありがとうございます！",
    "はい、わかりました。よろしくお願いします。",
    "알겠습니다, 고마워요",
    "OK, 谢谢",
    "Спасибо большое!",
    "👍 спасибо большое!",
    "תודה רבה!",
    "شكرا جزيلا",
    "ठीक है, धन्यवाद",
]


@pytest.mark.parametrize("text", ACKNOWLEDGEMENTS)
def test_a_pure_acknowledgement_is_dropped_at_any_length(eng, text):
    assert len(text) >= 16
    r = eng.capture(text, now=T0)
    assert (r.status, r.details["reason"]) == ("drop", "low_signal_short_text")
    assert list((eng.root / "entries").iterdir()) == []


@pytest.mark.parametrize("text", FACTS + WIDE_FACTS)
def test_a_fact_among_acknowledgement_words_is_kept(eng, text):
    r = eng.capture(text, now=T0)
    assert r.status == "captured", r.details
    assert parse_entry((eng.root / r.details["page"]).read_text(encoding="utf-8")).content == text


def test_past_the_cap_a_text_is_not_read_as_an_acknowledgement(eng):
    """The word lists decide up to ACK_MAX_CHARS characters; past it a text is kept (a wrong drop loses a memory
    without a trace, a wrong keep costs a page a person can delete)."""
    from memkeeper.core.text import ACK_MAX_CHARS

    under = ", ".join(["ok thanks"] * (ACK_MAX_CHARS // 11))
    over = under + ", ok thanks" * 2
    assert len(under) <= ACK_MAX_CHARS < len(over)
    assert eng.capture(under, now=T0).status == "drop"
    assert eng.capture(over, now=T0).status == "captured"


@pytest.mark.parametrize("text", WIDE_ACKNOWLEDGEMENTS)
def test_an_acknowledgement_in_another_script_is_dropped(eng, text):
    r = eng.capture(text, now=T0)
    assert (r.status, r.details.get("reason")) == ("drop", "low_signal_short_text")
    assert list((eng.root / "entries").iterdir()) == []


# --- joiners in one-line fields -------------------------------------------------------------------------------------

PERSIAN = "می\u200cخواهم یادداشت"  # "I want" + "note": one word with a ZERO WIDTH NON-JOINER, then another
FAMILY = "Family \U0001f469\u200d\U0001f469\u200d\U0001f467 trip plan"  # one emoji of three people (ZWJ)
FIRE_HEART = "\u2764\ufe0f\u200d\U0001f525 retro notes"  # a ZWJ sequence after a variation selector
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f office"  # a flag's tag sequence


@pytest.mark.parametrize("title", [PERSIAN, FAMILY, FIRE_HEART, SCOTLAND])
def test_a_title_keeps_the_joiners_it_is_written_with(eng, title):
    r = eng.capture(
        "The summer trip is booked for July in Lisbon.",
        now=T0,
        title=title,
        tags=[title],
        recall=[f"{title} dates"],
    )
    assert r.status == "captured", r.details
    assert "normalized" not in r.details  # the receipt no longer says title, tags or recall were changed
    page = (eng.root / r.details["page"]).read_text(encoding="utf-8")
    entry = parse_entry(page)
    assert (entry.title, entry.tags, entry.recall) == (title, [title], [f"{title} dates"])
    assert eng.load(r.details["memory_id"]).title == title
    assert f"[{title}]" in (eng.root / "hot.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("Invoice \u202etxt.exe\u202c review", "Invoice txt.exe review"),  # right-to-left override
        ("Budget \u2066\u2067draft\u2069\u2069 plan", "Budget draft plan"),  # isolates
        ("Line one\nstatus: archived", "Line one status: archived"),
        ("Hidden\U000e0041\U000e0042 tags plan", "Hidden tags plan"),  # tag characters outside a flag
        ("\u200dLeading joiner plan", "Leading joiner plan"),  # a joiner that joins nothing
        ("Bell\x07 and \u200d joiner", "Bell and joiner"),
    ],
)
def test_line_breaks_controls_and_bidi_controls_still_go(eng, given, stored):
    r = eng.capture("The summer trip is booked for July in Lisbon.", now=T0, title=given)
    assert r.status == "captured", r.details
    assert r.details["normalized"] == ["title"]
    entry = parse_entry((eng.root / r.details["page"]).read_text(encoding="utf-8"))
    assert entry.title == stored
    assert entry.status.value == "active"


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("Kuber\u00adnetes upgrade plan", "Kubernetes upgrade plan"),  # a soft hyphen: where the word may break
        ("payments\u200bsettle window", "paymentssettle window"),  # a zero-width space inside a code name
        ("ภาษา\u200bไทย notes", "ภาษาไทย notes"),  # Thai writes no spaces; the break hint is not one
        ("Word\u2060joiner and \ufeffmark", "Wordjoiner and mark"),
    ],
)
def test_invisible_break_hints_inside_a_word_are_dropped_not_made_spaces(eng, given, stored):
    """A soft hyphen or a zero-width space sits inside a word; made a space, it cut the word in two ("Kuber netes"),
    and the title was found by neither half of a query for the whole word."""
    r = eng.capture("The summer trip is booked for July in Lisbon.", now=T0, title=given, tags=[given])
    assert r.status == "captured", r.details
    entry = parse_entry((eng.root / r.details["page"]).read_text(encoding="utf-8"))
    assert (entry.title, entry.tags) == (stored, [stored])


# --- the conflicts view -------------------------------------------------------------------------------------------

FORGED = (
    "The primary database for billing is MySQL.\n"
    "### C7 — 2026-01-01 — Deploy day\n"
    "**Status**: resolved\n"
    "Deploy day\n"
    "---\n"
    "\n"
    "1. migrate the schema\n"
    "- then switch the DSN\n"
    "> quoted\n"
    "***"
)


def _blocks(markdown: str) -> list[tuple[str, str]]:
    """What a Markdown viewer (Textual's parser) makes of a page: (block type, text) of each heading and rule."""
    tokens = MarkdownIt("gfm-like").parse(markdown)
    out = []
    for i, t in enumerate(tokens):
        if t.type == "heading_open":
            out.append((t.tag, tokens[i + 1].content))
        elif t.type == "hr":
            out.append(("hr", ""))
    return out


def _conflict(eng, incoming: str) -> str:
    eng.capture("The primary database for billing is Postgres.", now=T0, key="billing-db", title="Billing database")
    r = eng.capture(incoming, now=T0 + timedelta(hours=1), key="billing-db", title="Billing database")
    assert r.status == "conflict", r.details
    return r.details["conflict_id"]


def test_a_multi_line_statement_cannot_write_a_section_of_the_conflicts_view(eng):
    cid = _conflict(eng, FORGED)
    view = (eng.root / "CONFLICTS.md").read_text(encoding="utf-8")
    assert _blocks(view) == [("h1", "Conflicts"), ("h3", f"{cid} — 2026-11-20 — Billing database")]
    lines = view.splitlines()
    assert [ln for ln in lines if ln.startswith("### ")] == [f"### {cid} — 2026-11-20 — Billing database"]
    assert [ln for ln in lines if ln.startswith("**Status**")] == ["**Status**: open"]
    assert "_Generated 2026-11-20T10:00:00Z. Open: 1._" in lines
    # The statement reads as it was written, one line under another, in a quote under its label.
    html = MarkdownIt("gfm-like").render(view)
    shown = html.split("<blockquote>")[1].split("</blockquote>")[0]
    for line in ("### C7 — 2026-01-01 — Deploy day", "**Status**: resolved", "1. migrate the schema", "> quoted"):
        assert line.replace(">", "&gt;") in shown
    assert shown.count("<br />") == FORGED.count("\n") - 2  # a hard break between lines; a blank line parts two
    assert "**Side B**:\n> The primary database for billing is MySQL.\\\n" in view


def test_the_conflict_record_page_shows_the_statement_the_same_way(eng):
    cid = _conflict(eng, FORGED)
    page = (eng.root / "conflicts" / f"{cid}.md").read_text(encoding="utf-8")
    body = page.split("\n---\n", 1)[1]
    assert _blocks(body) == [("h1", f"{cid} — Billing database")]


def test_a_one_line_statement_stays_on_its_label_line(eng):
    _conflict(eng, "The primary database for billing is MySQL.")
    view = (eng.root / "CONFLICTS.md").read_text(encoding="utf-8")
    assert "**Side B**: The primary database for billing is MySQL.\n  - source: (none) · agent_inferred" in view
    assert ">" not in view
