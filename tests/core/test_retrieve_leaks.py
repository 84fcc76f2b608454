"""Retrieval must not leak what a zone may not see (SPEC §4 retrieve, the zone table).

1. The IDF weights (document frequency, record total, the "common" terms) are counted over the records the requesting
   zone may retrieve: a hidden or non-active record moves no number an agent sees.
2. A page edited in place (no rename: the quick scan on open does not notice) is checked before it is served: what
   the page now says decides whether, and how, the record is returned.
3. The full-text candidates are drawn from what the zone may retrieve: records it may not see take none of their
   places, however many of them match better.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from memkeeper.core import Engine, scoring
from memkeeper.core.models import Entry, SensitivityTier, Status, TrustZone
from memkeeper.core.pagefmt import render_entry
from tests.conftest import T0

VISIBLE = "Our public API rate limit is 100 requests per minute"
ZONES = ["private_self", "trusted_collaborator", "outside_contact", "paid_public"]

# (requesting zone, how the hidden record is stored): zone and sensitivity at capture, then its status.
HIDDEN_CASES = [
    ("outside_contact", "private_self", "do_not_export", "active"),
    ("outside_contact", "private_self", "public_safe", "active"),  # public_safe, but private_self origin
    ("outside_contact", "outside_contact", "normal", "active"),  # not public_safe
    ("outside_contact", "trusted_collaborator", "do_not_export", "active"),
    ("paid_public", "private_self", "public_safe", "active"),
    ("trusted_collaborator", "private_self", "do_not_export", "active"),
    ("trusted_collaborator", "outside_contact", "public_safe", "archived"),
    ("outside_contact", "outside_contact", "public_safe", "archived"),
    ("outside_contact", "outside_contact", "public_safe", "denied"),
    ("private_self", "private_self", "normal", "archived"),
    ("private_self", "private_self", "normal", "denied"),
    ("private_self", "private_self", "normal", "superseded"),
]


def _visible(eng: Engine) -> str:
    r = eng.capture(VISIBLE, now=T0, title="API rate limit", zone="outside_contact", sensitivity="public_safe")
    assert r.status == "captured", r.details
    return r.details["memory_id"]


def _rate_card(eng: Engine) -> None:
    """A second record every zone may see, sharing the query word "rate"."""
    eng.capture(
        "The rate card for partners is published monthly",
        now=T0,
        zone="trusted_collaborator",
        sensitivity="public_safe",
    )


def _hide(eng: Engine, text: str, title: str, zone: str, sensitivity: str, status: str) -> str:
    r = eng.capture(text, now=T0, title=title, zone=zone, sensitivity=sensitivity)
    assert r.status == "captured", r.details
    mid = r.details["memory_id"]
    if status != "active":
        e = eng.load(mid)
        e.status = Status(status)
        with eng.writing():
            eng.save(e)
    return mid


def _result(eng: Engine, query: str, zone: str, mid: str) -> dict:
    r = eng.retrieve(query, zone=zone, now=T0, actor="agent:x", record_access=False)
    assert r.status == "ok", r.details
    got = [x for x in r.details["results"] if x["memory_id"] == mid]
    assert got, f"{mid} not returned for {query!r} as {zone}"
    return {"score": got[0]["score"], "components": got[0]["components"]}


def _hidden_falcons(eng: Engine, zone: str, sensitivity: str, status: str, n: int = 3) -> list[str]:
    subjects = ["acquisition target is Zeta Corp", "budget is four million", "launch date is in March"]
    return [
        _hide(eng, f"Project Falcon {subjects[i % 3]} (note {i})", f"Falcon note {i}", zone, sensitivity, status)
        for i in range(n)
    ]


def test_reproduction_outside_contact(eng):
    """The brief's reproduction: a do_not_export private_self record holds "falcon"."""
    _hide(
        eng,
        "Project Falcon acquisition target is Zeta Corp",
        "Falcon target",
        "private_self",
        "do_not_export",
        "active",
    )
    mid = _visible(eng)
    assert _result(eng, "rate falcon", "outside_contact", mid) == _result(eng, "rate qwertyzzz", "outside_contact", mid)


@pytest.mark.parametrize("zone, hidden_zone, hidden_sensitivity, hidden_status", HIDDEN_CASES)
def test_score_ignores_words_of_hidden_records(eng, zone, hidden_zone, hidden_sensitivity, hidden_status):
    mid = _visible(eng)
    _hidden_falcons(eng, hidden_zone, hidden_sensitivity, hidden_status)
    assert _result(eng, "rate falcon", zone, mid) == _result(eng, "rate qwertyzzz", zone, mid)


@pytest.mark.parametrize("zone, hidden_zone, hidden_sensitivity, hidden_status", HIDDEN_CASES)
def test_score_ignores_how_many_hidden_records_exist(eng, zone, hidden_zone, hidden_sensitivity, hidden_status):
    mid = _visible(eng)
    # Another visible record, so the query's words have weights that depend on the record total.
    _rate_card(eng)
    before = _result(eng, "rate limit falcon", zone, mid)
    _hidden_falcons(eng, hidden_zone, hidden_sensitivity, hidden_status, n=4)
    # The hidden records share "rate" and "limit" with the visible one, as well as "falcon".
    _hide(
        eng,
        "Falcon rate limit for the private beta is 5",
        "Falcon beta limit",
        hidden_zone,
        hidden_sensitivity,
        hidden_status,
    )
    assert _result(eng, "rate limit falcon", zone, mid) == before


def test_private_self_scores_follow_active_records_only(eng):
    """private_self sees every active record: its weights count exactly those (an archived record moves nothing)."""
    mid = _visible(eng)
    eng.capture(
        "Project Falcon acquisition target is Zeta Corp", now=T0, zone="private_self", sensitivity="do_not_export"
    )
    with_active = _result(eng, "rate falcon", "private_self", mid)
    # A visible falcon lowers the weight of "falcon" for private_self (it may see it) ...
    assert with_active != _result(eng, "rate qwertyzzz", "private_self", mid)
    # ... and archived records holding it count no more than records that do not exist.
    _hidden_falcons(eng, "private_self", "normal", "archived")
    assert _result(eng, "rate falcon", "private_self", mid) == with_active


def test_visible_records_of_other_zones_still_count(eng):
    """The weights are the zone's own: a record the zone may see does count (the fix is not "ignore everything")."""
    mid = _visible(eng)
    base = _result(eng, "rate falcon", "outside_contact", mid)
    _hide(eng, "Project Falcon is our public mascot", "Falcon mascot", "trusted_collaborator", "public_safe", "active")
    assert _result(eng, "rate falcon", "outside_contact", mid) != base


def test_common_terms_are_counted_within_the_zone(eng, monkeypatch):
    """`common` (terms in more than half of the records) uses the zone's counts, not the whole wiki's."""
    mid = _visible(eng)
    _rate_card(eng)
    eng.capture("Office hours are nine to five", now=T0, zone="trusted_collaborator", sensitivity="public_safe")
    for i in range(6):  # hidden from outside_contact, seen by trusted_collaborator; none of them has "rate"
        _hide(eng, f"Internal falcon sheet {i} for the deal", f"Falcon sheet {i}", "private_self", "normal", "active")
    seen: list[frozenset[str]] = []
    index = eng.store.index
    real = index.fts_candidates

    def spy(terms, limit=300, common=frozenset(), **kwargs):
        seen.append(common)
        return real(terms, limit=limit, common=common, **kwargs)

    monkeypatch.setattr(index, "fts_candidates", spy)
    _result(eng, "rate office", "outside_contact", mid)
    # outside_contact sees three records, two with "rate": common for it (over the whole wiki: two of nine).
    assert seen[-1] == frozenset({"rate"})
    _result(eng, "rate office", "trusted_collaborator", mid)
    assert seen[-1] == frozenset()  # trusted_collaborator sees all nine
    # A word in none of the zone's records says nothing about them either: looked up last too (not ranked first
    # across the whole wiki). For trusted_collaborator "falcon" is in six of nine: common.
    eng.retrieve("office falcon", zone="outside_contact", now=T0, actor="agent:x", record_access=False)
    assert seen[-1] == frozenset({"falcon"})
    eng.retrieve("office falcon", zone="trusted_collaborator", now=T0, actor="agent:x", record_access=False)
    assert seen[-1] == frozenset({"falcon"})


def test_zone_that_sees_none_of_the_words(eng):
    """No record the zone may see holds a query word: nothing is returned; the owner is still told how many
    matches the zone may not see, an agent is not."""
    _visible(eng)
    _hidden_falcons(eng, "private_self", "normal", "active")
    agent = eng.retrieve("falcon", zone="outside_contact", now=T0, actor="agent:x", record_access=False)
    assert agent.details["results"] == [] and "hidden_by_zone" not in agent.details
    owner = eng.retrieve("falcon", zone="outside_contact", now=T0, actor="human:o", record_access=False)
    assert owner.details["results"] == [] and owner.details["hidden_by_zone"] == 3
    assert len(eng.retrieve("falcon", zone="trusted_collaborator", now=T0, record_access=False).details["results"]) == 3


def test_zone_sql_is_the_zone_table():
    """The SQL form of the zone table keeps exactly the records `zone_allows` lets a zone see."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE records (trust_zone TEXT, sensitivity_tier TEXT)")
    db.executemany(
        "INSERT INTO records VALUES (?, ?)", [(z.value, s.value) for z in TrustZone for s in SensitivityTier]
    )
    for zone in TrustZone:
        where, params = scoring.zone_sql(zone)
        got = set(db.execute(f"SELECT trust_zone, sensitivity_tier FROM records WHERE {where or '1'}", params))
        want = {(z.value, s.value) for z in TrustZone for s in SensitivityTier if scoring.zone_allows(zone, z, s)}
        assert got == want, zone


# (zone, sensitivity, status) of the records of a wiki: mostly active, mostly inactive, all active. Each mix makes
# the counts take another way (the records kept by the zone, or those left out, whichever is fewer).
MIXES = {
    "mostly_active": [(z, s, "active") for z in ZONES for s in ("normal", "public_safe", "do_not_export")]
    + [("outside_contact", "public_safe", "archived"), ("private_self", "normal", "denied")],
    "mostly_inactive": [(z, s, "archived") for z in ZONES for s in ("normal", "public_safe", "do_not_export")]
    + [("outside_contact", "public_safe", "active"), ("private_self", "do_not_export", "active")],
    "all_active": [(z, "normal", "active") for z in ZONES]
    + [("private_self", "public_safe", "active"), ("outside_contact", "public_safe", "active")]
    + [("trusted_collaborator", "do_not_export", "active")],
}


SUBJECTS = "amber basil cedar delta ember fjord garnet hazel indigo juniper kelp lotus maple nutmeg".split()


@pytest.mark.parametrize("mix", sorted(MIXES))
def test_zone_counts_match_a_count_of_the_visible_records(eng, mix):
    words = ["falcon", "rate", "limit", "harbor", "quokka"]
    for n, (zone, sensitivity, status) in enumerate(MIXES[mix]):
        said = " ".join(w for k, w in enumerate(words) if (n >> k) & 1 or k == n % len(words))
        subject = SUBJECTS[n]
        _hide(eng, f"The {subject} memo lists {said}", f"{subject} memo", zone, sensitivity, status)
    index = eng.store.index
    rows = index.query("SELECT rowid, trust_zone, sensitivity_tier, status FROM records")
    terms = [*scoring.query_terms(" ".join(words)), "nowhere"]
    for zone in TrustZone:
        visible = {
            r["rowid"]
            for r in rows
            if r["status"] == "active"
            and scoring.zone_allows(zone, TrustZone(r["trust_zone"]), SensitivityTier(r["sensitivity_tier"]))
        }
        want = {
            t: len(visible & {r[0] for r in index.query("SELECT rowid FROM fts WHERE fts MATCH ?", (f'"{t}"',))})
            for t in terms
        }
        assert index.eligible_doc_freqs(terms, *scoring.zone_sql(zone)) == (len(visible), want), zone


# ------------------------------------------------------------------------------------------ pages edited in place


def _rewrite_in_place(page: Path, old: str, new: str) -> None:
    """Edit the page's bytes without a rename: the directory's mtime does not change, so opening does not rescan.
    The page's mtime is set a second on, as an editor saving later would: a file system's clock ticks coarsely
    (milliseconds), and an edit of the same size in the same tick is one no (mtime, size) check can see."""
    entries_sig = os.stat(page.parent).st_mtime_ns
    before = os.stat(page)
    with open(page, "r+", encoding="utf-8") as fh:
        text = fh.read()
        assert old in text
        fh.seek(0)
        fh.write(text.replace(old, new))
        fh.truncate()
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    assert os.stat(page.parent).st_mtime_ns == entries_sig


@pytest.fixture
def carol(tmp_path):
    root = tmp_path / "memory"
    eng = Engine.init(root, now=T0)
    r = eng.capture("Carol's home address is 12 Elm Street in Springfield", now=T0, title="Carol home address")
    assert r.status == "captured", r.details
    assert [x["memory_id"] for x in _carol(eng, "trusted_collaborator")] == [r.details["memory_id"]]
    eng.close()
    return root, root / r.details["page"], r.details["memory_id"]


def _carol(eng: Engine, zone: str, limit: int = 10) -> list[dict]:
    r = eng.retrieve("Carol address", zone=zone, limit=limit, now=T0, actor="agent:x", record_access=False)
    assert r.status == "ok", r.details
    return r.details["results"]


def test_sensitivity_raised_in_place_is_not_served(carol):
    root, page, mid = carol
    _rewrite_in_place(page, "sensitivity_tier: normal", "sensitivity_tier: do_not_export")
    with closing(Engine.open(root)) as eng:
        assert _carol(eng, "trusted_collaborator") == []
        owner = eng.retrieve("Carol address", zone="trusted_collaborator", now=T0, actor="human:o", record_access=False)
        assert owner.details["hidden_by_zone"] == 1  # the owner previewing the zone is told, as for any hidden match
        mine = _carol(eng, "private_self")  # the owner still gets it, as the page now says
        assert [(x["memory_id"], x["sensitivity"]) for x in mine] == [(mid, "do_not_export")]
        # The index row was brought up to date: a later query needs no second look.
        row = eng.store.index.query("SELECT sensitivity_tier FROM records WHERE memory_id=?", (mid,))
        assert row[0][0] == "do_not_export"
        assert _carol(eng, "trusted_collaborator") == []


def test_sensitivity_raised_in_place_same_engine(carol):
    """An engine already open when the page was edited does not serve the old row either."""
    root, page, _mid = carol
    with closing(Engine.open(root)) as eng:
        _rewrite_in_place(page, "sensitivity_tier: normal", "sensitivity_tier: do_not_export")
        assert _carol(eng, "trusted_collaborator") == []


@pytest.mark.parametrize("status", ["archived", "denied", "superseded"])
def test_status_changed_in_place_is_not_served(carol, status):
    root, page, _mid = carol
    _rewrite_in_place(page, "status: active", f"status: {status}")
    with closing(Engine.open(root)) as eng:
        for zone in ZONES:
            assert _carol(eng, zone) == []


def test_zone_narrowed_in_place(tmp_path):
    root = tmp_path / "memory"
    eng = Engine.init(root, now=T0)
    r = eng.capture(
        "Carol's office address is 12 Elm Street in Springfield",
        now=T0,
        title="Carol office address",
        zone="outside_contact",
        sensitivity="public_safe",
    )
    assert [x["memory_id"] for x in _carol(eng, "paid_public")] == [r.details["memory_id"]]
    eng.close()
    _rewrite_in_place(root / r.details["page"], "trust_zone: outside_contact", "trust_zone: private_self")
    with closing(Engine.open(root)) as eng:
        assert _carol(eng, "paid_public") == []
        assert _carol(eng, "outside_contact") == []
        assert [x["zone"] for x in _carol(eng, "trusted_collaborator")] == ["private_self"]


def test_content_edited_in_place_is_served_as_it_now_reads(carol):
    root, page, mid = carol
    _rewrite_in_place(page, "12 Elm Street in Springfield", "34 Oak Avenue in Shelbyville, since May")
    with closing(Engine.open(root)) as eng:
        got = _carol(eng, "trusted_collaborator")
        assert [x["memory_id"] for x in got] == [mid]
        assert got[0]["excerpt"] == "Carol's home address is 34 Oak Avenue in Shelbyville, since May"
        old = eng.retrieve("Elm Springfield", zone="trusted_collaborator", now=T0, actor="agent:x", record_access=False)
        assert old.details["results"] == []  # the old words are gone from the index too


def test_page_broken_in_place_is_dropped(carol):
    root, page, _mid = carol
    _rewrite_in_place(page, "status: active", "status: [unclosed")
    with closing(Engine.open(root)) as eng:
        for zone in ZONES:
            assert _carol(eng, zone) == []
        assert [b.path for b in eng.bad_pages()] == [page.relative_to(root).as_posix()]  # reported, as a sync does


def test_page_removed_while_open_is_dropped(carol):
    root, page, _mid = carol
    with closing(Engine.open(root)) as eng:
        page.unlink()  # while the engine is open: nothing rescans
        for zone in ZONES:
            assert _carol(eng, zone) == []


def test_dropped_results_do_not_shorten_the_list(tmp_path):
    root = tmp_path / "memory"
    eng = Engine.init(root, now=T0)
    pages = []
    for i, street in enumerate(["Elm", "Oak", "Pine", "Birch"]):
        r = eng.capture(
            f"Carol's address number {i} is {10 + i} {street} Street", now=T0, title=f"Carol address {street}"
        )
        assert r.status == "captured", r.details
        pages.append((r.details["memory_id"], root / r.details["page"]))
    top = _carol(eng, "trusted_collaborator", limit=2)
    assert len(top) == 2
    eng.close()
    by_id = dict(pages)
    for x in top:
        _rewrite_in_place(by_id[x["memory_id"]], "sensitivity_tier: normal", "sensitivity_tier: do_not_export")
    with closing(Engine.open(root)) as eng:
        got = _carol(eng, "trusted_collaborator", limit=2)
        hidden = {x["memory_id"] for x in top}
        assert len(got) == 2 and not hidden & {x["memory_id"] for x in got}


def test_edited_result_is_reordered_by_its_new_score(tmp_path):
    """A result whose page changed is scored again from the page: it takes its new place in the order."""
    root = tmp_path / "memory"
    eng = Engine.init(root, now=T0)
    a = eng.capture("Carol lives at 12 Elm Street", now=T0, title="Carol address", confidence=0.9)
    b = eng.capture(
        "The Carol Hall venue address is 5 Main Road", now=T0, title="Carol Hall venue address", confidence=0.5
    )
    assert (a.status, b.status) == ("captured", "captured"), (a.details, b.details)
    got = [x["memory_id"] for x in _carol(eng, "private_self")]
    assert got == [a.details["memory_id"], b.details["memory_id"]]
    eng.close()
    _rewrite_in_place(root / a.details["page"], "confidence: 0.9", "confidence: 0.15")
    with closing(Engine.open(root)) as eng:
        got = [(x["memory_id"], x["components"]["confidence"]) for x in _carol(eng, "private_self")]
        assert got == [(b.details["memory_id"], 0.5), (a.details["memory_id"], 0.15)]


# ------------------------------------------------------------------------- candidates: only what the zone may retrieve

SENSITIVITIES = [s.value for s in SensitivityTier]
STATUSES = [s.value for s in Status]
# More matching records than the candidates drawn from the full-text index (`Index.fts_candidates`, 300).
PILE = 320


def _heron_pile(root: Path, n: int, zone: str, sensitivity: str, status: str = "active") -> None:
    """n records that say "heron" over and over in few words, written straight to entries/ (as a restored backup or
    another tool would leave them): bm25 ranks every one of them above a longer record that says it once."""
    for i in range(n):
        e = Entry(
            memory_id=f"mem_{ZONES.index(zone)}{SENSITIVITIES.index(sensitivity)}{STATUSES.index(status)}{i:013x}",
            canonical_key=f"heron-pile-{zone}-{sensitivity}-{status}-{i}",
            title=f"Heron heron {i}",
            trust_zone=TrustZone(zone),
            sensitivity_tier=SensitivityTier(sensitivity),
            status=Status(status),
            created_at=T0,
            updated_at=T0,
            last_accessed_at=T0,
            content=f"Heron heron heron, pile {i}.",
        )
        slug = f"heron-pile-{zone}-{sensitivity}-{status}-{i}".replace("_", "-")
        (root / "entries" / f"{slug}.md").write_text(render_entry(e), encoding="utf-8")


def _visible_herons(eng: Engine, zone: str, sensitivity: str) -> list[str]:
    """Three records the requesting zone may see, each saying "heron" once among many other words."""
    notes = [
        "The marsh survey counted one heron near the northern reed beds after the long dry summer of drought",
        "Volunteers logged a heron beside the old mill pond while repairing the fence posts and the gate hinges",
        "A heron was photographed at dawn from the hide on the eastern causeway by the visiting school group",
    ]
    ids = []
    for n, text in enumerate(notes):
        r = eng.capture(text, now=T0, title=f"Marsh note {n}", zone=zone, sensitivity=sensitivity)
        assert r.status == "captured", r.details
        ids.append(r.details["memory_id"])
    return ids


def _herons(root: Path, zone: str, actor: str = "agent:x") -> dict:
    with closing(Engine.open(root)) as eng:
        r = eng.retrieve("heron", zone=zone, now=T0, actor=actor, record_access=False)
    assert r.status == "ok", r.details
    return r.details


# (requesting zone, how the visible records are stored, how the pile of hidden matches is stored)
PILE_CASES = [
    ("outside_contact", ("outside_contact", "public_safe"), ("private_self", "do_not_export", "active")),
    ("outside_contact", ("trusted_collaborator", "public_safe"), ("private_self", "public_safe", "active")),
    ("outside_contact", ("outside_contact", "public_safe"), ("outside_contact", "normal", "active")),
    ("paid_public", ("outside_contact", "public_safe"), ("outside_contact", "public_safe", "archived")),
    ("trusted_collaborator", ("private_self", "normal"), ("trusted_collaborator", "do_not_export", "active")),
    ("private_self", ("private_self", "normal"), ("private_self", "normal", "archived")),
    ("private_self", ("outside_contact", "public_safe"), ("private_self", "normal", "denied")),
]


@pytest.mark.parametrize("zone, visible, hidden", PILE_CASES)
def test_a_visible_match_outranked_by_more_than_300_hidden_ones_is_still_returned(tmp_path, zone, visible, hidden):
    """The candidates are drawn from what the zone may retrieve: hidden records that bm25 ranks first take none of
    the places, so the zone's own matches are found (recall) and what it is shown does not depend on them (a leak
    through ranking)."""
    root = tmp_path / "memory"
    with closing(Engine.init(root, now=T0)) as eng:
        ids = _visible_herons(eng, *visible)
    before = _herons(root, zone)
    assert {x["memory_id"] for x in before["results"]} == set(ids)
    _heron_pile(root, PILE, *hidden)
    with closing(Engine.open(root)) as eng:
        # The pile is indexed, and every one of its records outranks the visible ones in the full-text index.
        index = eng.store.index
        best = [r[0] for r in index.query("SELECT memory_id FROM fts WHERE fts MATCH 'heron' ORDER BY rank LIMIT 300")]
        assert len(best) == 300 and not set(ids) & set(best)
    after = _herons(root, zone)
    assert after["results"] == before["results"]
    # The owner previewing the zone gets the same results, and is told of the hidden matches: active records the
    # zone may not see, counted among at most 300 of them (a record that is not active matches for no zone).
    owner = _herons(root, zone, actor="human:o")
    assert owner["results"] == before["results"]
    assert owner["hidden_by_zone"] == (300 if hidden[2] == "active" else 0)
