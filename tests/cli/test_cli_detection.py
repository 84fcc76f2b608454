"""Contradictions as agents write them, end to end through the command line: no --key, different titles and
sources, among unrelated notes. Every kind of conflict reaches the queue; a possible conflict is cleared by "both
valid" and stays cleared; declared relations are honoured; nothing that differs is merged."""

from __future__ import annotations

import json

import pytest

from .conftest import run

BACKGROUND = [
    ("The office plants are watered on Mondays by the facilities team.", "Plant watering"),
    ("Our payroll provider sends payslips on the 25th of each month.", "Payslips"),
    ("The marketing site is built with Astro and deployed on Netlify.", "Marketing site stack"),
    ("The guest Wi-Fi password rotates every quarter.", "Guest Wi-Fi"),
]


def capture(capsys, root, text, *args):
    code, out, err = run(capsys, root, "--json", "capture", text, *args)
    return code, json.loads(out), err


@pytest.fixture
def wiki(capsys, root):
    for text, title in BACKGROUND:
        code, r, _ = capture(capsys, root, text, "--title", title, "--source-ref", "raw/background.md")
        assert code == 0 and r["status"] == "captured", r
    return root


@pytest.mark.parametrize(
    "first, second, ctype",
    [
        (
            "The ceramics studio is open on Saturdays.",
            "The ceramics studio is never open on Saturdays.",
            "direct_negation",
        ),
        (
            "The ceramics studio closes at 17:00 on weekdays.",
            "On weekdays the ceramics studio closes at 20:30.",
            "mutually_exclusive",
        ),
        (
            "The ceramics studio membership costs $40 a month.",
            "A ceramics studio membership is $95 a month.",
            "quantitative_drift",
        ),
        (
            "The ceramics studio glazes are ordered from Potclays.",
            "The ceramics studio switched from Potclays to Valentine Clays for glazes.",
            "decision_supersession",
        ),
    ],
)
def test_every_kind_of_conflict_reaches_the_queue_without_keys(capsys, wiki, first, second, ctype):
    code, a, _ = capture(capsys, wiki, first, "--title", "Studio note", "--source-ref", "raw/session-1.md#L3")
    assert a["status"] == "captured"
    code, b, _ = capture(
        capsys,
        wiki,
        second,
        "--title",
        "Another studio note",
        "--as",
        "agent:other",
        "--source-ref",
        "slack #studio 2026-11-19",
    )
    assert code == 0 and b["status"] == "conflict", b
    assert b["details"]["conflict_type"] == ctype and b["details"]["memory_id"] == a["details"]["memory_id"]
    assert b["details"]["related"][0]["memory_id"] == a["details"]["memory_id"]
    code, out, _ = run(capsys, wiki, "--json", "conflicts", "list")
    assert code == 0 and b["details"]["conflict_id"] in out


@pytest.mark.parametrize(
    "first, second",
    [
        ("The nightly ETL finishes by 04:00.", "The nightly ETL usually completes around 07:30."),
        ("Ravi owns the billing service.", "The billing service belongs to Chen's team now."),
    ],
)
def test_the_issues_own_pairs_reach_the_queue(capsys, wiki, first, second):
    """The pairs the detection issue was filed with, written as two agent sessions write them: no key, different
    sources, among unrelated notes."""
    code, a, _ = capture(capsys, wiki, first, "--source-ref", "raw/session-1.md")
    assert a["status"] == "captured"
    code, b, _ = capture(capsys, wiki, second, "--as", "agent:other", "--source-ref", "raw/session-2.md")
    assert code == 0 and b["status"] == "conflict", b
    assert b["details"]["memory_id"] == a["details"]["memory_id"]


@pytest.mark.parametrize(
    "first, second, kind",
    [
        ("Sam is allergic to peanuts.", "Sam has no food allergies.", "possible"),
        ("Sam is allergic to penicillin.", "Sam has no allergies.", "conflict"),
        ("Sam isn't allergic to anything.", "Sam is allergic to bee stings.", "conflict"),
    ],
)
def test_a_denied_noun_against_its_state_word_is_held(capsys, wiki, first, second, kind):
    """The issue's own example, without a key: "no food allergies" denies what "allergic to peanuts" asserts. A
    denial with a qualifier ("food") may be of another kind than the one named, so it is `possible`; a bare one
    ("no allergies", "not allergic to anything") is a conflict. Neither is ever merged."""
    code, a, _ = capture(capsys, wiki, first, "--source-ref", "raw/session-1.md")
    assert a["status"] == "captured"
    code, b, _ = capture(capsys, wiki, second, "--as", "agent:other", "--source-ref", "raw/session-2.md")
    assert code == 0 and b["status"] == "conflict", b
    assert b["details"]["memory_id"] == a["details"]["memory_id"]
    d = b["details"]
    assert (d.get("possible") is True) == (kind == "possible"), d
    assert (d["suspected"] if kind == "possible" else d["conflict_type"]) == "direct_negation", d


@pytest.mark.parametrize(
    "first, second",
    [
        ("Our production database runs PostgreSQL 13.", "Prod DB was upgraded to Postgres 16 in the spring."),
        ("The prod DB runs Postgres 13.", "The production database was upgraded to PostgreSQL 16."),
        ("The logo colour is teal.", "The logo color changed to orange."),
    ],
)
def test_a_subject_written_another_way_is_found(capsys, wiki, first, second):
    """The index matches words as written; a statement that writes its subject in short forms or another spelling
    ("Prod DB", "Postgres", "color") still finds the record that writes it in full, and the reverse."""
    code, a, _ = capture(capsys, wiki, first, "--source-ref", "raw/session-1.md")
    assert a["status"] == "captured"
    code, b, _ = capture(capsys, wiki, second, "--as", "agent:other", "--source-ref", "raw/session-2.md")
    assert code == 0 and b["status"] == "conflict", b
    assert b["details"]["memory_id"] == a["details"]["memory_id"]


def test_a_claim_inside_a_session_summary_is_found_by_a_later_one_liner(capsys, wiki):
    """Agents often write one note of several claims at the end of a session; a later one-line statement that
    contradicts one of them reaches the queue, and one that agrees with another of them does not."""
    summary = (
        "Session summary for the ceramics studio. The kiln is fired on Thursdays by Margit. "
        "Glaze orders go to Potclays every second month. The studio's insurance renews in March. "
        "Members get a locker after three months."
    )
    code, a, _ = capture(capsys, wiki, summary, "--title", "Ceramics studio session", "--source-ref", "chat:1")
    assert a["status"] == "captured", a
    code, b, _ = capture(
        capsys, wiki, "The studio's insurance renews in September.", "--title", "Studio insurance", "--source-ref", "x"
    )
    assert b["status"] == "conflict" and b["details"]["memory_id"] == a["details"]["memory_id"], b
    code, c, _ = capture(capsys, wiki, "Margit fires the kiln on Thursdays.", "--title", "Kiln firing")
    assert c["status"] != "conflict", c


def test_a_long_summary_is_looked_up_claim_by_claim(capsys, wiki):
    """A session summary's heaviest words (its names) stand for some of its claims only: each claim is looked up
    too, so a stored one-liner that one of them contradicts is found."""
    code, a, _ = capture(capsys, wiki, "The studio insurance renews in March.", "--title", "Studio insurance")
    summary = "\n".join(
        [
            "Studio session with Margit Olsen:",
            "- Margit Olsen fires the kiln on Thursdays",
            "- Glaze orders go to Potclays every second month",
            "- Valentine Clays supplies the stoneware body",
            "- Members get a locker after three months",
            "- The wheel room closes at 21:00 on weekdays",
            "- Jonas Berg teaches the Tuesday beginners class",
            "- The studio insurance renews in September",
            "- New members pay a deposit of 40 euros",
        ]
    )
    code, b, _ = capture(capsys, wiki, summary, "--title", "Studio session")
    assert b["status"] == "conflict" and b["details"]["memory_id"] == a["details"]["memory_id"], b


def test_source_disagreement_needs_a_differing_value(capsys, wiki):
    capture(capsys, wiki, "The spare router is stored in the basement cabinet.", "--source-ref", "raw/inventory.md")
    code, b, _ = capture(capsys, wiki, "The spare router is stored in the attic.", "--source-ref", "slack #it")
    assert b["status"] == "conflict" and b["details"]["conflict_type"] in ("source_disagreement", "mutually_exclusive")
    # the same claim from another source is a restatement, never a conflict
    code, c, _ = capture(capsys, wiki, "The spare router is stored in the attic.", "--source-ref", "raw/other.md")
    assert c["status"] != "conflict" or c["details"].get("duplicate"), c


def test_a_possible_conflict_is_cleared_by_both_valid_and_remembered(capsys, wiki):
    capture(capsys, wiki, "The signed tenancy papers are in the hall cupboard.", "--title", "Tenancy papers")
    code, b, _ = capture(
        capsys,
        wiki,
        "I think the signed tenancy papers are kept in the desk drawer.",
        "--title",
        "Where the tenancy papers are",
    )
    assert b["status"] == "conflict" and b["details"]["conflict_type"] == "possible", b
    assert b["details"]["possible"] is True and b["details"]["suspected"] and b["details"]["confidence"] < 0.55
    cid = b["details"]["conflict_id"]
    code, out, _ = run(capsys, wiki, "conflicts", "list")
    assert "possible" in out
    code, out, err = run(capsys, wiki, "--as", "human:pat", "conflicts", "resolve", cid, "--keep", "both")
    assert code == 0, err
    # the same hedged claim again is not held a second time
    code, again, _ = capture(
        capsys,
        wiki,
        "I think the signed tenancy papers are kept in the desk drawer.",
        "--title",
        "Tenancy papers again",
    )
    assert again["status"] != "conflict", again


def test_declared_relations_are_honoured_and_recorded(capsys, wiki):
    code, a, _ = capture(capsys, wiki, "Release notes are written by the docs guild.", "--title", "Release notes")
    mid = a["details"]["memory_id"]
    # restates: consolidated into that record when it says the same ...
    code, r, _ = capture(capsys, wiki, "The release notes are written by the docs guild.", "--restates", mid)
    assert r["status"] == "consolidated" and r["details"]["memory_id"] == mid
    assert r["details"]["declared"] == {"relation": "restates", "memory_id": mid}
    # ... and refused, with nothing written, when its words say more ("drafts every set of"): merged, they were lost
    code, r, err = capture(capsys, wiki, "The docs guild drafts every set of release notes.", "--restates", mid)
    assert code == 2 and r["status"] == "reject" and r["details"]["reason"] == "not_a_restatement", r
    assert "capture it without restates" in err
    # supersedes and contradicts: a conflict for a person, nothing resolved
    for option, text in (
        ("--supersedes", "Release notes are now generated from commit messages."),
        ("--contradicts", "Release notes are not written by the docs guild."),
    ):
        code, r, _ = capture(capsys, wiki, text, option, mid)
        assert code == 0 and r["status"] == "conflict", r
        assert r["details"]["declared"]["relation"] == option[2:] and r["details"]["memory_id"] == mid
        assert r["details"]["confidence"] == 1.0
    code, out, _ = run(capsys, wiki, "--json", "conflicts", "list")
    assert {c["declared"] for c in json.loads(out)} == {"supersedes", "contradicts"}
    # the same statement declared again, otherwise: the waiting conflict and its declaration stand, and it says so
    text = "Release notes are not written by the docs guild."
    code, r, _ = capture(capsys, wiki, text, "--supersedes", mid)
    assert r["details"]["duplicate"] is True and r["details"]["declared_before"] == "contradicts", r
    code, r, _ = capture(capsys, wiki, text, "--contradicts", mid)
    assert r["details"]["duplicate"] is True and "declared_before" not in r["details"], r
    from memkeeper.core import Engine

    eng = Engine.open(wiki)
    assert eng.load(mid).status.value == "active"  # the record is untouched until a person decides
    eng.close()


def _declared_after_the_fact(capsys, wiki):
    """An agent captures a statement detection does not relate to the record it contradicts, finds that record in
    the receipt's `related`, and captures the same statement again declaring the contradiction."""
    code, a, _ = capture(capsys, wiki, "Vega's error tracker is Sentry.", "--title", "Vega error tracker")
    code, b, _ = capture(capsys, wiki, "Vega exceptions are reported to Rollbar.", "--title", "Vega exceptions")
    old, new = a["details"]["memory_id"], b["details"]["memory_id"]
    assert b["status"] == "captured", b
    assert old in [r["memory_id"] for r in b["details"]["related"]], b["details"]["related"]
    code, c, _ = capture(
        capsys, wiki, "Vega exceptions are reported to Rollbar.", "--title", "Vega exceptions", "--contradicts", old
    )
    assert c["status"] == "conflict" and c["details"]["declared"] == {"relation": "contradicts", "memory_id": old}
    page = (wiki / "conflicts" / f"{c['details']['conflict_id']}.md").read_text()
    assert f"already a record: {new}" in page
    return old, new, c["details"]["conflict_id"]


def _records(wiki):
    from memkeeper.core import Engine

    eng = Engine.open(wiki)
    try:
        ids = [r["memory_id"] for r in eng.store.index.query("SELECT memory_id FROM records")]
        out = {}
        for mid in ids:
            e = eng.load(mid)
            out[mid] = (e.status.value, e.superseded_by, e.content)
        return out
    finally:
        eng.close()


@pytest.mark.parametrize("keep", ["incoming", "existing", "both"])
def test_a_relation_declared_after_the_fact_makes_no_second_copy(capsys, wiki, keep):
    old, new, cid = _declared_after_the_fact(capsys, wiki)
    before = _records(wiki)
    code, out, err = run(capsys, wiki, "--as", "human:pat", "--json", "conflicts", "resolve", cid, "--keep", keep)
    assert code == 0, err
    receipt = json.loads(out)
    after = _records(wiki)
    assert set(after) == set(before)  # no record made from the held text: the statement is a record already
    assert receipt["details"]["created"] is None
    if keep == "incoming":
        assert after[old][:2] == ("superseded", new) and after[new][0] == "active"
    elif keep == "existing":
        assert after[new][:2] == ("superseded", old) and after[old][0] == "active"
        assert "[SUPERSEDED by " in after[new][2]  # kept, marked, never deleted
    else:
        assert after[old][0] == after[new][0] == "active"
        # the pair is remembered: the statement again is not held a second time
        code, again, _ = capture(capsys, wiki, "Vega exceptions are reported to Rollbar.", "--title", "Again")
        assert again["status"] != "conflict", again
        assert again["status"] == "consolidated", again
        # the undo would write back the record as it was before the decision, and the restatement with it
        code, out, err = run(capsys, wiki, "--as", "human:pat", "undo", receipt["receipt_sha256"][:12])
        assert code == 2 and "changed_by_later_capture" in err
        return
    code, out, err = run(capsys, wiki, "--as", "human:pat", "undo", receipt["receipt_sha256"][:12])
    assert code == 0, err
    restored = _records(wiki)
    assert {m: restored[m] for m in (old, new)} == {m: before[m] for m in (old, new)}


def test_declared_relations_reject_unknown_ids_and_other_partitions(capsys, wiki):
    code, r, err = capture(capsys, wiki, "The lift is serviced every March.", "--supersedes", "mem_0000000000000000")
    assert code == 2 and r["details"]["reason"] == "unknown_memory_id" and "unknown_memory_id" in err
    code, a, _ = capture(capsys, wiki, "The lift is serviced every March.", "--zone", "trusted_collaborator")
    code, r, err = capture(capsys, wiki, "The lift is serviced every spring.", "--restates", a["details"]["memory_id"])
    assert code == 2 and r["details"]["reason"] == "partition_mismatch"
    code, _, err = run(
        capsys, wiki, "capture", "The lift is serviced in March.", "--restates", "x", "--supersedes", "y"
    )
    assert code == 2 and "not allowed with" in err


@pytest.mark.parametrize(
    "text",
    [
        "The office coffee machine is a Jura E8 and it is descaled on Fridays.",  # another subject
        "Release notes are written by the platform team.",  # another value
        "The docs guild drafts every set of release notes, and the PM signs them off.",  # a detail added
    ],
)
def test_a_declared_restatement_that_says_something_else_is_refused_and_stored_nowhere_else(capsys, wiki, text):
    """A declared `restates` consolidated any text into the record named, and a consolidation keeps only that it
    happened: the statement was stored nowhere, and the record's confidence rose on it."""
    from memkeeper.core import Engine

    code, a, _ = capture(capsys, wiki, "Release notes are written by the docs guild.", "--title", "Release notes")
    mid = a["details"]["memory_id"]
    eng = Engine.open(wiki)
    before = (eng.load(mid).reinforcement, eng.load(mid).confidence)
    eng.close()
    code, r, err = capture(capsys, wiki, text, "--restates", mid)
    assert code == 2 and r["status"] == "reject" and r["details"]["reason"] == "not_a_restatement"
    assert err.startswith(f"memkeeper: capture reject: not_a_restatement ({mid} does not say the same (")
    eng = Engine.open(wiki)
    assert (eng.load(mid).reinforcement, eng.load(mid).confidence) == before
    eng.close()


def test_a_record_cannot_supersede_or_contradict_its_own_statement(capsys, wiki):
    text = "The lift is serviced every March."
    code, a, _ = capture(capsys, wiki, text)
    mid = a["details"]["memory_id"]
    for option in ("--supersedes", "--contradicts"):
        code, r, err = capture(capsys, wiki, text, option, mid)
        assert code == 2 and r["details"]["reason"] == "same_statement", r
        assert f"{mid} already holds this statement" in err
    assert json.loads(run(capsys, wiki, "--json", "conflicts", "list")[1]) == []


@pytest.mark.parametrize("ref", ["m", "mem_", "mem_%", "mem__", "%", "mem_0"])
def test_a_placeholder_id_names_no_record(capsys, root, ref):
    """A prefix of at least mem_ and six hex digits names a record: "mem_" or "m" named whichever record was alone
    in a small wiki (and `_`, `%` were wildcards)."""
    code, a, _ = capture(capsys, root, "The lift is serviced every March.")
    mid = a["details"]["memory_id"]
    code, r, _ = capture(capsys, root, "The lift is serviced every March, by Kone.", "--restates", ref)
    assert code == 2 and r["details"]["reason"] == "unknown_memory_id"
    code, r, _ = capture(capsys, root, "The lift is serviced every March.", "--restates", mid[:10])
    assert r["status"] == "consolidated" and r["details"]["memory_id"] == mid


def test_receipts_list_related_records(capsys, wiki):
    code, a, _ = capture(capsys, wiki, "The ceramics studio kiln fires on Thursdays.", "--title", "Kiln day")
    code, b, _ = capture(
        capsys, wiki, "The ceramics studio kiln fires on Thursdays after the glazing class.", "--title", "Kiln loading"
    )
    assert b["status"] == "captured"
    related = b["details"]["related"]
    assert related and set(related[0]) == {"memory_id", "title", "relation", "score"}
    assert related[0]["memory_id"] == a["details"]["memory_id"] and related[0]["relation"] == "compatible"
    code, out, _ = run(capsys, wiki, "capture", "The ceramics studio kiln fires on Thursdays, usually at night.")
    assert "related:" in out


def test_related_lists_a_close_record_detection_calls_another_subject(capsys, wiki):
    """Detection reads words, not meaning: a record that shares most of the subject's words but that it judged to
    be about another subject is still listed (last, as `unrelated`), so that the agent can decide."""
    code, a, _ = capture(capsys, wiki, "Meridian staging uses Redis 6.", "--title", "Meridian staging cache")
    code, b, _ = capture(capsys, wiki, "Beacon staging uses Redis 7.", "--title", "Beacon staging cache")
    assert b["status"] == "captured"
    listed = {r["memory_id"]: r for r in b["details"]["related"]}
    assert listed[a["details"]["memory_id"]]["relation"] == "unrelated"
    assert listed[a["details"]["memory_id"]]["score"] >= 0.5
    # a note that shares a word or two is not listed
    assert not {t for t, _ in BACKGROUND} & {r["title"] for r in b["details"]["related"]}


def test_unrelated_notes_sharing_words_are_not_held(capsys, wiki):
    capture(capsys, wiki, "Meridian staging uses Redis 6.", "--title", "Meridian staging cache")
    code, b, _ = capture(capsys, wiki, "Beacon staging uses Redis 7.", "--title", "Beacon staging cache")
    assert b["status"] == "captured", b


def test_a_consolidation_never_appends_differing_text(capsys, wiki):
    code, a, _ = capture(capsys, wiki, "The ceramics studio kiln fires on Thursdays.", "--key", "kiln-day")
    code, b, _ = capture(
        capsys,
        wiki,
        "The ceramics studio kiln fires on Thursdays.",
        "--key",
        "kiln-day",
        "--source-ref",
        "raw/notes.md#L2",
    )
    assert b["status"] == "consolidated"
    page = (wiki / a["details"]["page"]).read_text()
    notes = [line for line in page.splitlines() if "Consolidated note" in line]
    assert notes and all("restated by agent:cli" in n and "Thursdays" not in n for n in notes)


def test_a_kept_statement_meets_what_was_captured_while_it_waited(capsys, wiki):
    capture(capsys, wiki, "The Lisbon office opens at 8:00.")
    code, held, _ = capture(capsys, wiki, "The Lisbon office opens at 9:00; its door code is 4512.")
    assert held["status"] == "conflict", held
    code, code_rec, _ = capture(capsys, wiki, "The door code of the Lisbon office is 7781.")
    assert code_rec["status"] == "captured", code_rec
    cid = held["details"]["conflict_id"]
    code, out, err = run(capsys, wiki, "--as", "human:pat", "conflicts", "resolve", cid, "--keep", "incoming")
    assert code == 0, err
    opened = [line.split() for line in out.splitlines() if line.strip().startswith("opened:")]
    assert len(opened) == 1 and opened[0][-1] == code_rec["details"]["memory_id"], out
    code, listing, _ = run(capsys, wiki, "conflicts", "list")
    assert [line.split()[0] for line in listing.splitlines()] == [opened[0][1]]  # C1 resolved, the new one open


def test_a_declared_restatement_about_something_else_is_refused_as_having_little_in_common(capsys, wiki):
    """Read as declared (one subject, says the agent), a text about a coffee machine was refused as "same subject,
    adds enum:operating_system": the refusal now says the two have little in common."""
    code, a, _ = capture(capsys, wiki, "The mobile app minimum iOS version is 15.", "--title", "iOS minimum")
    mid = a["details"]["memory_id"]
    code, r, err = capture(capsys, wiki, "Something entirely different about the coffee machine.", "--restates", mid)
    assert code == 2 and r["details"]["reason"] == "not_a_restatement"
    assert f"{mid} does not say the same (little in common with it: subject score 0.00)" in err, err
    assert "same subject" not in err


@pytest.mark.parametrize(
    "first, second",
    [
        ("The Atlas launch date is 2026-12-05.", "The Atlas launch date is now 2026/12/06."),
        ("The Atlas launch date is 2026-12-05.", "The Atlas launch date is now 12/06/2026."),
        ("The Atlas launch date is 12/05/2026.", "The Atlas launch date is now 12/06/2026."),
        ("The Atlas launch date is 12/20/2026.", "The Atlas launch date is now 12/22/2026."),
        ("The Atlas launch date is 05.12.2026.", "The Atlas launch date is now 06.12.2026."),
        ("The Atlas launch date is 25/12/2026.", "The Atlas launch date is now 5/1/27."),
    ],
)
def test_a_date_written_in_digits_with_slashes_or_dots_is_a_date(capsys, wiki, first, second):
    """A date such as "12/05/2026" was three numbers: a day or two later was within the amounts' tolerance ("compatible", both
    records kept under one subject) and 20 days later a "quantitative drift". A date in digits is a date, read both
    ways when day and month could be either."""
    capture(capsys, wiki, first, "--title", "Atlas launch")
    code, b, _ = capture(capsys, wiki, second, "--title", "Atlas launch moved", "--as", "agent:other")
    assert code == 0 and b["status"] == "conflict", b
    assert b["details"]["conflict_type"] == "mutually_exclusive", b


@pytest.mark.parametrize(
    "first, second",
    [
        ("The Atlas launch date is 12/05/2026.", "The Atlas launch is on 2026-12-05."),  # month first
        ("The Atlas launch date is 05/12/2026.", "The Atlas launch is on 2026-12-05."),  # day first
        ("The Atlas launch date is 25/12/2026.", "The Atlas launch is on 12/25/2026."),  # each way, one reading
    ],
)
def test_a_date_in_digits_that_one_reading_makes_the_same_day_is_not_held(capsys, wiki, first, second):
    capture(capsys, wiki, first, "--title", "Atlas launch")
    code, b, _ = capture(capsys, wiki, second, "--title", "Atlas launch day", "--as", "agent:other")
    assert code == 0 and b["status"] != "conflict", b


def capture_at(capsys, root, text, now, *args):
    code, out, err = run(capsys, root, "--json", "--now", now, "capture", text, *args)
    return code, json.loads(out), err


def two_at(capsys, root, first: tuple[str, str], second: tuple[str, str], titled: bool = False) -> dict:
    """Capture `first` then `second` (text, time), by two agents; the first must be captured. The second's receipt.
    `titled`: each under a title of its own (else the engine derives one)."""
    (text_a, at_a), (text_b, at_b) = first, second
    code, a, _ = capture_at(capsys, root, text_a, at_a, *(("--title", "The first") if titled else ()))
    assert code == 0 and a["status"] == "captured", a
    code, b, _ = capture_at(
        capsys, root, text_b, at_b, *(("--title", "The second") if titled else ()), "--as", "agent:o"
    )
    assert code == 0, b
    return b


@pytest.mark.parametrize(
    "first, second",
    [
        ("Parkrun at Roundhay, 5 Nov: 25:40.", "Parkrun, 19 Nov: 24:31, a best for the autumn."),
        ("Mentoring with Dara, 5 Nov: code review etiquette.", "Mentoring with Dara, 19 Nov: reading query plans."),
        ("Deployed Atlas v2.1 to prod on 5 Nov.", "Deployed Atlas v2.2 to prod on 19 Nov."),
        ("Lena runs parkrun most Saturdays at 09:00.", "Parkrun on 19 Nov at 10:30 (a late start)."),
        # a report that also names days to come is still a report of its own day
        (
            "Physio, 5 Nov: knee improving, 3 sets of 12.",
            "Physio, 19 Nov: knee fine. Two more sessions: 26 Nov, 3 Dec.",
        ),
        # a note that names a month and no day reports that month: a day of another is another occasion
        (
            "Nadia joined the Orbit team in March 2026. Theo pairs with her every other Tuesday at 14:00.",
            "Pairing with Nadia, 17 Nov: she drove the schema migration.",
        ),
        # a day a negation names is held only where the other says the same of it (what "no" denies is swimming)
        ("Ola's judo grading is on Sat 14 Nov at 10:00.", "No swimming on 14 Nov: Ola had her judo grading."),
    ],
)
def test_two_days_gone_by_are_two_occasions_not_a_contradiction(capsys, wiki, first, second):
    """An agent that keeps a log writes what happened on a day, on that day: "Parkrun, 5 Nov: 25:40", two weeks
    later "Parkrun, 19 Nov: 24:31". Both were held as a contradiction of the first (a third of the notes of a
    consistent three-month log were held so). Days that each statement reports, gone by when it was captured and
    none shared, are two occasions; an occasion against a habit is an exception to it."""
    code, a, _ = capture_at(capsys, wiki, first, "2026-11-05T20:00:00Z", "--title", "Log one")
    assert code == 0 and a["status"] == "captured", a
    code, b, _ = capture_at(capsys, wiki, second, "2026-11-19T20:00:00Z", "--title", "Log two", "--as", "agent:other")
    assert code == 0 and b["status"] == "captured", b


@pytest.mark.parametrize(
    "plan, report, held",
    [
        # a plan whose days went by, against a report of another day, is another occasion
        (
            "Week ahead, 9-15 Nov:\n- Mon: planning 11:00, school pickup\n- Thu: office; physio 08:00; mentoring Dara"
            " 11:00\n- Sat: parkrun, football, piano",
            "Parkrun 28 Nov: 24:58, first time under 25 minutes this year.",
            False,
        ),
        (
            "Omar's trip to Porto: 10-14 Nov. Pepper stays with Irene in Harrogate.",
            "Irene brought Pepper back on Sun 15 Nov and stayed for lunch.",
            False,
        ),
        # unless the two are surely about one thing: the plan slipped
        ("The Atlas launch is on 24 Nov.", "The Atlas launch was on 26 Nov.", True),
        ("Noor's piano exam is on Sat 28 Nov at 11:20.", "Noor sat her piano exam on 21 Nov at 11:20.", True),
    ],
)
def test_a_plan_whose_days_went_by_against_a_report_of_another_day(capsys, wiki, plan, report, held):
    second = two_at(capsys, wiki, (plan, "2026-11-08T18:00:00Z"), (report, "2026-11-30T12:00:00Z"))
    assert (second["status"] == "conflict") == held, second


@pytest.mark.parametrize(
    "report",
    ["Ola passed her Stage 3 swimming badge on Wed 4 Nov.", "Car insurance quote arrived 13 Nov: £468 for the year."],
)
def test_a_report_against_a_later_plan_of_days_after_it(capsys, wiki, report):
    """The report is told first, of days before all of the plan's: another occasion (read whole, a list of plans
    shares little with it, whatever one of its items shares)."""
    plan = (
        "Week ahead, 30 Nov-6 Dec:\n- Mon 30: Atlas planning; Omar on call from 10:00; Beavers\n- Tue 1 Dec: car"
        " insurance renews; 1:1 with Ana\n- Wed 2 Dec: Grace's birthday; Ola swimming\n- Fri 4 Dec: Atlas release;"
        " Christmas fair 15:15"
    )
    code, a, _ = capture_at(capsys, wiki, report, "2026-11-21T20:00:00Z")
    assert code == 0 and a["status"] == "captured", a
    code, b, _ = capture_at(capsys, wiki, plan, "2026-11-29T16:00:00Z", "--as", "agent:o")
    assert code == 0 and b["status"] == "captured", b


@pytest.mark.parametrize(
    "report, change, held",
    [
        # what a log entry says happened on its day stays true whatever changes after it
        (
            "Billing on-call, 3 Nov: no pages overnight; Omar on call.",
            "Handed billing on-call to Marta at 10:00 on 9 Nov.",
            False,
        ),
        (
            "The Fiesta passed its MOT on 2 Nov; advisory on the front brake pads.",
            "Replace the Fiesta's front brake pads before January.",
            False,
        ),
        # a statement of how things are, and a change told of the same day it reports, are superseded
        ("The billing service runs on Heroku.", "Moved billing from Heroku to Fly.io on 9 Nov.", True),
        (
            "On 3 Nov the billing export ran on Heroku.",
            "On 3 Nov the billing export was moved from Heroku to Fly.io.",
            True,
        ),
    ],
)
def test_a_change_told_later_does_not_supersede_a_report_of_a_day_gone_by(capsys, wiki, report, change, held):
    second = two_at(capsys, wiki, (report, "2026-11-03T20:00:00Z"), (change, "2026-11-09T12:00:00Z"), titled=True)
    assert (second["status"] == "conflict") == held, second


@pytest.mark.parametrize(
    "habit, occasion, held",
    [
        # one occasion on a named day, gone by or to come, done otherwise: an exception to the habit
        (
            "The Kestrel release train goes out on Thursdays at 15:00.",
            "No Kestrel release on Thu 26 Nov: the team is at the offsite.",
            False,
        ),
        (
            "Ola's swimming lesson is on Tuesdays at 17:00.",
            "Ola's swimming lesson on 3 Nov was cancelled: the pool was closed.",
            False,
        ),
        (
            "Kestrel standup is at 09:30 on weekdays.",
            "Kestrel standup on Fri 13 Nov is at 11:00, after the all-hands.",
            False,
        ),
        # a day that bounds a time says when the habit changes
        ("Kestrel standup is at 09:30 on weekdays.", "From Mon 16 Nov the Kestrel standup moves to 10:00.", True),
        ("Kestrel standup is at 09:30 on weekdays.", "Starting 16 Nov, Kestrel standup is at 10:00 on weekdays.", True),
    ],
)
def test_an_occasion_is_an_exception_to_a_habit_unless_it_says_when_the_habit_changes(
    capsys, wiki, habit, occasion, held
):
    second = two_at(capsys, wiki, (habit, "2026-11-01T09:00:00Z"), (occasion, "2026-11-10T09:00:00Z"), titled=True)
    assert (second["status"] == "conflict") == held, second


@pytest.mark.parametrize(
    "first, second, first_at, second_at",
    [
        # the day is the claim: a plan, a deadline (still to come when captured)
        ("The Atlas kickoff is on 24 Nov.", "The Atlas kickoff is on 26 Nov.", "2026-11-05", "2026-11-19"),
        # a day without its year long before the capture is as likely next year's: an anniversary, a renewal
        (
            "The Datadog contract renews on June 1.",
            "The Datadog renewal is on September 1.",
            "2026-11-05",
            "2026-11-19",
        ),
        # two reports that each name a day to come may give two answers for it: a plan changed
        (
            "On 3 Nov the team agreed the Atlas kickoff is on 24 Nov.",
            "On 18 Nov the team agreed the Atlas kickoff is on 26 Nov.",
            "2026-11-05",
            "2026-11-19",
        ),
        # two months or years and no day: as likely one event dated two ways
        (
            "Kestrel moved to the new data centre in 2024.",
            "Kestrel moved to the new data centre in 2025.",
            "2026-11-05",
            "2026-11-19",
        ),
        ("Kestrel went live in March 2026.", "Kestrel went live in May 2026.", "2026-11-05", "2026-11-19"),
        # one day both report, told two ways
        (
            "The Atlas retro on 3 Nov was at 14:00.",
            "The Atlas retro on 3 Nov was at 16:00.",
            "2026-11-05",
            "2026-11-19",
        ),
    ],
)
def test_a_day_that_is_the_claim_still_conflicts(capsys, wiki, first, second, first_at, second_at):
    capture_at(capsys, wiki, first, first_at + "T09:00:00Z", "--title", "Plan one")
    code, b, _ = capture_at(capsys, wiki, second, second_at + "T09:00:00Z", "--title", "Plan two", "--as", "agent:o")
    assert code == 0 and b["status"] == "conflict", b
