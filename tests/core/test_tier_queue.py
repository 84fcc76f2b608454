from __future__ import annotations

from datetime import timedelta

import pytest

from memkeeper.core import tiers
from memkeeper.core.errors import BadInput
from tests.conftest import T0

HUMAN = "human:alice"
OLD = T0 - timedelta(days=200)


def seed(eng):
    ids = {}
    for name, cat, when in [
        ("lesson", "lesson", OLD),
        ("fact", "fact", OLD),
        ("pref", "preference", OLD),
        ("decision", "decision", OLD),
        ("recent", "fact", T0 - timedelta(days=10)),
        ("edge", "fact", T0 - timedelta(days=180)),
    ]:
        r = eng.capture(
            f"Tier test {name}: the {name} record about the harbor deploy pipeline.",
            now=when,
            category=cat,
            title=f"Tier {name}",
        )
        assert r.status == "captured", r.details
        ids[name] = r.details["memory_id"]
    # hot.md links the last five captures (protected: "in flight"); push the seeded ones out of it
    for n, text in enumerate(
        [
            "Lisbon offsite is booked for March.",
            "The support rota changes in January.",
            "Invoices are exported as CSV every Friday.",
            "The design system uses 8px spacing.",
            "Search reindexing takes about forty minutes.",
        ]
    ):
        eng.capture(text, now=T0 - timedelta(days=1, minutes=n), category="fact")
    return ids


def test_plan_writes_nothing_and_classifies(eng):
    ids = seed(eng)
    log_before = (eng.root / "log.md").read_text()
    plan = eng.plan_tiers(now=T0)
    assert (eng.root / "log.md").read_text() == log_before
    assert [c.memory_id for c in plan.automatic] == [ids["lesson"]]
    assert sorted(c.memory_id for c in plan.ambiguous) == sorted([ids["fact"], ids["pref"]])
    assert ids["decision"] in [c.memory_id for c in plan.protected]
    assert ids["edge"] not in [c.memory_id for c in plan.automatic + plan.ambiguous]  # exactly 180 days stays
    assert plan.projected_bytes_removed > 0


def test_commit_then_apply(eng):
    ids = seed(eng)
    r = eng.commit_tiers(now=T0, actor=HUMAN)
    assert r.details["automatic"] == [ids["lesson"]] and eng.load(ids["lesson"]).tier.value == "cold"
    review = r.details["review"]
    text = (eng.root / review).read_text()
    assert "kind: cleanup" in text and "A. accepted IDs: (none)" in text
    parsed = tiers.parse_review(text)
    by_path = {c.path: c.candidate_id for c in parsed.candidates}
    accept = by_path[eng.page_of(ids["fact"])]
    unanswered = eng.apply_tiers(review, None, now=T0, actor=HUMAN)
    assert unanswered.status == "reject" and any("unanswered" in e for e in unanswered.details["errors"])
    unknown = eng.apply_tiers(review, ["abcdefabcdef"], now=T0, actor=HUMAN)
    assert unknown.status == "reject"
    a = eng.apply_tiers(review, [accept], now=T0, actor=HUMAN)
    assert a.status == "applied"
    assert eng.load(ids["fact"]).tier.value == "cold" and eng.load(ids["pref"]).tier.value == "warm"
    assert not (eng.root / review).exists() and (eng.root / a.details["moved_to"]).exists()
    assert f"A. accepted IDs: {accept}" in (eng.root / a.details["moved_to"]).read_text()
    # cold stays findable by metadata, as a pointer
    res = eng.retrieve("tier fact harbor", now=T0, record_access=False).details["results"]
    assert any(x["memory_id"] == ids["fact"] and x["excerpt"] is None for x in res)
    u = eng.undo(a.receipt_sha256, now=T0, actor=HUMAN)
    assert u.status == "undone" and eng.load(ids["fact"]).tier.value == "warm"


def test_stale_review_refused_with_nothing_written(eng):
    ids = seed(eng)
    review = eng.commit_tiers(now=T0, actor=HUMAN).details["review"]
    parsed = tiers.parse_review((eng.root / review).read_text())
    accept = [c.candidate_id for c in parsed.candidates]
    # one accepted page changes after the plan
    eng.capture(
        "Tier test fact: the fact record about the harbor deploy pipeline.",
        now=T0 + timedelta(hours=1),
        category="fact",
        title="Tier fact",
    )
    before = {m: (eng.root / eng.page_of(m)).read_text() for m in (ids["fact"], ids["pref"])}
    r = eng.apply_tiers(review, accept, now=T0 + timedelta(hours=2), actor=HUMAN)
    assert (r.status, r.details["reason"]) == ("reject", "stale_pages")
    assert r.details["stale_paths"] == [eng.page_of(ids["fact"])]
    assert {m: (eng.root / eng.page_of(m)).read_text() for m in before} == before
    assert (eng.root / review).exists()


def test_restore_warm(eng):
    ids = seed(eng)
    eng.commit_tiers(now=T0, actor=HUMAN)
    r = eng.restore_tier(ids["lesson"], now=T0, actor=HUMAN)
    assert r.status == "restored" and eng.load(ids["lesson"]).tier.value == "warm"
    eng.undo(r.receipt_sha256, now=T0, actor=HUMAN)
    assert eng.load(ids["lesson"]).tier.value == "cold"


def test_a_record_a_person_restored_is_not_made_cold_again_by_the_next_commit(eng):
    """Restored to warm, an old lesson was still old and unread: the next plan took it as automatic again, and the
    next commit made it cold, unasked. A restore is the person's act on it: an access, undone with the restore."""
    ids = seed(eng)
    eng.commit_tiers(now=T0, actor=HUMAN)
    [review] = eng.pending_reviews()
    eng.apply_tiers(review, [], now=T0, actor=HUMAN)
    before = eng.load(ids["lesson"])
    r = eng.restore_tier(ids["lesson"], now=T0 + timedelta(days=1), actor=HUMAN)
    assert ids["lesson"] not in [c.memory_id for c in eng.plan_tiers(now=T0 + timedelta(days=2)).automatic]
    eng.commit_tiers(now=T0 + timedelta(days=2), actor=HUMAN)
    assert eng.load(ids["lesson"]).tier.value == "warm"
    for review in eng.pending_reviews():
        eng.apply_tiers(review, [], now=T0 + timedelta(days=2), actor=HUMAN)
    eng.undo(r.receipt_sha256, now=T0 + timedelta(days=3), actor=HUMAN)
    after = eng.load(ids["lesson"])
    assert (after.tier.value, after.last_accessed_at, after.strength) == (
        "cold",
        before.last_accessed_at,
        before.strength,
    )


def test_undo_apply_restores_pages_and_review(eng):
    ids = seed(eng)
    review = eng.commit_tiers(now=T0, actor=HUMAN).details["review"]
    page = eng.root / eng.page_of(ids["fact"])
    before = page.read_text()
    accept = [c.candidate_id for c in tiers.parse_review((eng.root / review).read_text()).candidates]
    a = eng.apply_tiers(review, accept, now=T0 + timedelta(hours=1), actor=HUMAN)
    assert page.read_text() != before
    eng.undo(a.receipt_sha256, now=T0 + timedelta(hours=2), actor=HUMAN)
    assert page.read_text() == before
    assert (eng.root / review).exists() and "A. accepted IDs: (none)" in (eng.root / review).read_text()
    assert eng.apply_tiers(review, accept, now=T0 + timedelta(hours=3), actor=HUMAN).status == "applied"
    assert [e.memory_id for e in eng.cold_records() if e.memory_id in ids.values()]


def test_undo_of_a_commit_takes_back_its_review_unless_a_person_marked_it_up(eng):
    """Undoing a commit restores the state before it: the tiers, and no pending review (left behind, it stayed
    pending and the next commit wrote a second one). A review edited since is kept, and the receipt says so."""
    ids = seed(eng)
    c = eng.commit_tiers(now=T0, actor=HUMAN)
    review = eng.root / c.details["review"]
    u = eng.undo(c.receipt_sha256, now=T0 + timedelta(hours=1), actor=HUMAN)
    assert u.status == "undone" and u.details["review_removed"] == c.details["review"]
    assert not review.exists() and eng.load(ids["lesson"]).tier.value == "warm"
    again = eng.commit_tiers(now=T0 + timedelta(hours=2), actor=HUMAN)
    assert again.details["review"] == c.details["review"]  # not a "-2" beside a stale one
    review.write_text(review.read_text().replace("A. accepted IDs: (none)", "A. accepted IDs: (none)\n<!-- mine -->"))
    u = eng.undo(again.receipt_sha256, now=T0 + timedelta(hours=3), actor=HUMAN)
    assert u.details["review_kept"] == again.details["review"] and "<!-- mine -->" in review.read_text()


def test_a_commit_cannot_be_undone_while_the_apply_of_its_review_stands(eng):
    """Undoing the commit first put its review back as pending, and applying that review again moved pages to
    cold for a commit that had been undone. The apply has to be undone first, as for any later decision."""
    seed(eng)
    commit = eng.commit_tiers(now=T0, actor=HUMAN)
    [review] = eng.pending_reviews()
    applied = eng.apply_tiers(review, [], now=T0 + timedelta(minutes=1), actor=HUMAN)
    refused = eng.undo(commit.receipt_sha256, now=T0 + timedelta(minutes=2), actor=HUMAN)
    assert (refused.status, refused.details["reason"], refused.details["superseded_by"]) == (
        "reject",
        "superseded_by_later_decision",
        applied.receipt_sha256,
    )
    assert eng.undo(applied.receipt_sha256, now=T0 + timedelta(minutes=3), actor=HUMAN).status == "undone"
    assert eng.undo(commit.receipt_sha256, now=T0 + timedelta(minutes=4), actor=HUMAN).status == "undone"
    assert eng.pending_reviews() == []


# --- apply against what happened since the plan (from an exploratory pass of tier review) ---------------------------


def _committed(eng):
    ids = seed(eng)
    review = eng.commit_tiers(now=T0, actor=HUMAN).details["review"]
    by_path = {c.path: c.candidate_id for c in tiers.parse_review((eng.root / review).read_text()).candidates}
    return ids, review, {name: by_path.get(eng.page_of(mid)) for name, mid in ids.items()}


def test_apply_holds_back_a_record_an_open_conflict_protects_now(eng):
    """Opening a conflict leaves the page as it was, so its hash still matches the plan: the record is held back
    as a stale one is (nothing written), and the rest applies once it is unticked."""
    ids, review, cand = _committed(eng)
    held = eng.capture(
        "Tier test fact: the fact record about the harbor deploy pipeline is wrong, it was retired.",
        now=T0,
        contradicts=ids["fact"],
    )
    assert held.status == "conflict", held.details
    r = eng.apply_tiers(review, [cand["fact"], cand["pref"]], now=T0, actor=HUMAN)
    assert (r.status, r.details["reason"]) == ("reject", "stale_pages")
    assert r.details["stale_ids"] == [cand["fact"]] and r.details["protected"] == {cand["fact"]: "open conflict"}
    assert eng.load(ids["fact"]).tier.value == "warm" and eng.load(ids["pref"]).tier.value == "warm"
    assert eng.apply_tiers(review, [cand["pref"]], now=T0, actor=HUMAN).status == "applied"
    assert eng.load(ids["fact"]).tier.value == "warm"


def test_an_applied_review_is_not_applied_again(eng):
    ids, review, cand = _committed(eng)
    a = eng.apply_tiers(review, [cand["fact"]], now=T0, actor=HUMAN)
    for path in (a.details["moved_to"], review):
        with pytest.raises(BadInput, match="was applied already"):
            eng.apply_tiers(path, [cand["pref"]], now=T0, actor=HUMAN)
    assert eng.load(ids["pref"]).tier.value == "warm"
    assert not (eng.root / "review" / "applied" / "applied").exists()


def test_a_review_listing_one_page_twice_is_refused(eng):
    ids, review, cand = _committed(eng)
    path = eng.page_of(ids["fact"])
    text = (eng.root / review).read_text()
    line = next(x for x in text.splitlines() if path in x)
    reason = "edited by hand"
    twin_id = tiers.candidate_id(path, "cold", reason)
    head, tail = line.split(" | reason: ", 1)
    twin = head.replace(cand["fact"], twin_id) + f" | reason: {reason} | risk: " + tail.split(" | risk: ", 1)[1]
    (eng.root / review).write_text(text.replace(line, line + "\n" + twin))
    r = eng.apply_tiers(review, [cand["fact"], twin_id], now=T0, actor=HUMAN)
    assert (r.status, r.details["reason"]) == ("reject", "invalid_review")
    assert any("is a candidate twice" in e for e in r.details["errors"]), r.details["errors"]
    assert eng.load(ids["fact"]).tier.value == "warm"


def test_undo_of_an_apply_keeps_a_note_an_agent_added_since(eng):
    ids, review, cand = _committed(eng)
    before = eng.load(ids["fact"]).notes
    a = eng.apply_tiers(review, [cand["fact"]], now=T0, actor=HUMAN)
    again = eng.capture(
        "Tier test fact: the fact record about the harbor deploy pipeline.",
        now=T0 + timedelta(minutes=5),
        source_ref="raw/other-session.md#L3",
    )
    assert again.status == "consolidated", again.details
    restated = eng.load(ids["fact"]).notes[-1]
    assert "raw/other-session.md#L3" in restated
    u = eng.undo(a.receipt_sha256, now=T0 + timedelta(minutes=10), actor=HUMAN)
    assert u.status == "undone", u.details
    after = eng.load(ids["fact"])
    assert after.tier.value == "warm"
    assert after.notes == [*before, restated]
    assert not any("Cold by tier review" in n for n in after.notes)


def test_a_new_plan_is_not_committed_while_a_review_is_pending(eng):
    """As the desk has it: one review at a time (a second one repeated every candidate of the first)."""
    ids, review, cand = _committed(eng)
    again = eng.commit_tiers(now=T0 + timedelta(days=1), actor=HUMAN)
    assert (again.status, again.details["reason"], again.details["pending"]) == ("reject", "review_pending", [review])
    assert eng.pending_reviews() == [review]
    assert eng.apply_tiers(review, [], now=T0 + timedelta(days=1), actor=HUMAN).status == "applied"
    assert eng.commit_tiers(now=T0 + timedelta(days=1), actor=HUMAN).status == "ok"


def test_pending_reviews_are_listed_oldest_first(eng):
    (eng.root / "review").mkdir(exist_ok=True)
    names = ["tier-review-2026-11-20-2.md", "tier-review-2026-11-20.md", "tier-review-2026-11-20-10.md"]
    names += ["tier-review-2026-11-19.md"]
    for name in names:
        (eng.root / "review" / name).write_text("---\nkind: cleanup\n---\n")
    assert eng.pending_reviews() == [
        "review/tier-review-2026-11-19.md",
        "review/tier-review-2026-11-20.md",
        "review/tier-review-2026-11-20-2.md",
        "review/tier-review-2026-11-20-10.md",
    ]


def test_a_review_an_editor_re_bulleted_is_read_whole(eng):
    """ "* candidate: …" and "- [x] candidate: …" (a Markdown editor's bullets and task lists) are candidate lines;
    a ticked one the answer leaves out is refused, since a tick reads as "accept" and is not what the review reads."""
    ids, review, cand = _committed(eng)
    text = (eng.root / review).read_text()
    fact_line = next(x for x in text.splitlines() if cand["fact"] in x)
    pref_line = next(x for x in text.splitlines() if cand["pref"] in x)
    text = text.replace(fact_line, fact_line.replace("- candidate", "* candidate", 1))
    text = text.replace(pref_line, pref_line.replace("- candidate", "- [x] candidate", 1))
    (eng.root / review).write_text(text)
    r = eng.apply_tiers(review, [cand["fact"]], now=T0, actor=HUMAN)
    assert (r.status, r.details["reason"]) == ("reject", "invalid_review")
    assert any("is ticked ([x]) but not accepted" in e for e in r.details["errors"]), r.details["errors"]
    r = eng.apply_tiers(review, [cand["fact"], cand["pref"]], now=T0, actor=HUMAN)
    assert r.status == "applied", r.details
    assert eng.load(ids["fact"]).tier.value == "cold" and eng.load(ids["pref"]).tier.value == "cold"
