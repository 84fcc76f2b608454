"""The agent-style pair set (benchmarks/data) is well formed and its split is the committed, stratified one.

This guards the data the end-to-end contradiction bench reads, not the detector."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"
LABELS = {"contradiction", "compatible", "unrelated"}
KINDS = {"value", "quantity", "polarity", "supersession"}
# Each set's two halves: the first set, and the fresh set written after the detector's rules were tuned.
SETS = {"agent_pairs.jsonl": ("dev", "heldout"), "agent_pairs_fresh.jsonl": ("fresh-dev", "fresh-heldout")}
SIDE_FIELDS = {"title", "content", "source_ref", "category", "zone", "sensitivity", "source_type"}
# Values as SPEC §3 defines them.
CATEGORIES = {
    "preference",
    "project",
    "decision",
    "direction",
    "fact",
    "insight",
    "lesson",
    "milestone",
    "commitment",
    "risk",
    "question",
    "draft",
}
ZONES = {"private_self", "trusted_collaborator", "outside_contact", "paid_public"}
TIERS = {"public_safe", "normal", "do_not_export"}
SOURCE_TYPES = {"user_stated", "user_confirmed", "agent_inferred"}


def _jsonl(name: str) -> list[dict]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="module", params=sorted(SETS))
def pairs(request) -> list[dict]:
    return _jsonl(request.param)


def _splits(pairs: list[dict]) -> tuple[str, str]:
    return SETS["agent_pairs_fresh.jsonl" if pairs[0]["split"].startswith("fresh-") else "agent_pairs.jsonl"]


@pytest.fixture(scope="module")
def distractors() -> list[dict]:
    return _jsonl("distractors.jsonl")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _check_side(side: dict, where: str) -> None:
    assert isinstance(side, dict), where
    assert set(side) <= SIDE_FIELDS, f"{where}: unexpected fields {set(side) - SIDE_FIELDS}"
    assert "key" not in side, f"{where}: a pair never carries a key"
    for name in ("title", "content"):
        assert isinstance(side.get(name), str) and side[name].strip(), f"{where}: {name} missing"
    # Long enough that capture never drops it as low-signal text.
    assert len(re.sub(r"[^a-z0-9 ]", "", side["content"].lower())) >= 20, f"{where}: content too short"
    assert side.get("category", "fact") in CATEGORIES, where
    assert side.get("zone", "private_self") in ZONES, where
    assert side.get("sensitivity", "normal") in TIERS, where
    assert side.get("source_type", "agent_inferred") in SOURCE_TYPES, where
    if "source_ref" in side:
        assert isinstance(side["source_ref"], str) and side["source_ref"].strip(), where


def test_pairs_schema(pairs):
    assert len(pairs) >= 200
    ids = [p["id"] for p in pairs]
    assert len(ids) == len(set(ids)), "pair ids are unique"
    for p in pairs:
        assert set(p) <= {"id", "split", "domain", "label", "kind", "first", "second", "note"}, p["id"]
        assert p["label"] in LABELS, p["id"]
        assert p["split"] in _splits(pairs), p["id"]
        assert isinstance(p["domain"], str) and p["domain"], p["id"]
        if p["label"] == "contradiction":
            assert p.get("kind") in KINDS, p["id"]
        else:
            assert "kind" not in p, p["id"]
        _check_side(p["first"], f"{p['id']}.first")
        _check_side(p["second"], f"{p['id']}.second")


def test_pairs_share_no_key_title_or_source(pairs):
    for p in pairs:
        a, b = p["first"], p["second"]
        assert _slug(a["title"]) != _slug(b["title"]), f"{p['id']}: titles would derive the same key"
        if "source_ref" in a and "source_ref" in b:
            assert a["source_ref"] != b["source_ref"], p["id"]
        # A contradiction is only looked for inside one zone and tier: both sides share them.
        for name, default in (("zone", "private_self"), ("sensitivity", "normal")):
            assert a.get(name, default) == b.get(name, default), f"{p['id']}: {name} differs"


def test_mix_of_labels_kinds_and_domains(pairs):
    labels = Counter(p["label"] for p in pairs)
    n = len(pairs)
    assert 0.4 <= labels["contradiction"] / n <= 0.6
    assert 0.2 <= labels["compatible"] / n <= 0.4
    assert 0.1 <= labels["unrelated"] / n <= 0.3
    kinds = Counter(p["kind"] for p in pairs if p["label"] == "contradiction")
    assert set(kinds) == KINDS
    domains = Counter(p["domain"] for p in pairs)
    assert len(domains) >= 10
    for d in domains:
        assert {p["label"] for p in pairs if p["domain"] == d} == LABELS, d


def test_split_is_stratified_and_reproducible(pairs):
    dev, held = _splits(pairs)
    by_split = Counter(p["split"] for p in pairs)
    assert by_split[dev] > 0 and by_split[held] > 0
    assert abs(by_split[dev] - by_split[held]) <= 1
    for label in LABELS:
        assert {p["split"] for p in pairs if p["label"] == label} == {dev, held}, label
    strata = defaultdict(list)
    for p in pairs:
        strata[(p["label"], p["domain"])].append(p)
    for key, members in strata.items():
        c = Counter(p["split"] for p in members)
        assert abs(c[dev] - c[held]) <= 1, key
    # The rule written in benchmarks/data/README.md gives exactly the split stored in the file. (The fresh set's
    # strata of odd size take as offset their index among the odd-sized strata alone.)
    odd = 0
    for n, (_, members) in enumerate(sorted(strata.items())):
        offset = n
        if dev.startswith("fresh-") and len(members) % 2:
            offset, odd = odd, odd + 1
        members = sorted(members, key=lambda p: (p.get("kind") or "", hashlib.sha256(p["id"].encode()).hexdigest()))
        for i, p in enumerate(members):
            assert p["split"] == (dev if (i + offset) % 2 == 0 else held), p["id"]


def test_distractors(pairs, distractors):
    assert len(distractors) >= 50
    ids = [d["id"] for d in distractors]
    assert len(ids) == len(set(ids))
    assert not set(ids) & {p["id"] for p in pairs}
    pair_titles = {_slug(p[s]["title"]) for p in pairs for s in ("first", "second")}
    for d in distractors:
        _check_side({k: v for k, v in d.items() if k not in ("id", "domain")}, d["id"])
        assert _slug(d["title"]) not in pair_titles, f"{d['id']}: shares a title (a derived key) with a pair"
    assert len(Counter(d["domain"] for d in distractors)) >= 10


# -- session summaries against one-liners (agent_summaries.jsonl) -----------------------------------------------------


@pytest.fixture(scope="module")
def summaries() -> list[dict]:
    return _jsonl("agent_summaries.jsonl")


def test_summaries_schema_and_split(summaries, distractors):
    """The set of multi-claim notes: well formed like the other sets, `first` holds several claims, and the split
    stored in the file is the one its rule gives (benchmarks/data/README.md)."""
    ids = [p["id"] for p in summaries]
    assert len(summaries) >= 100 and len(ids) == len(set(ids))
    for p in summaries:
        assert set(p) <= {"id", "split", "domain", "label", "kind", "shape", "first", "second"}, p["id"]
        assert p["label"] in LABELS and p["split"] in ("dev", "heldout") and p["shape"] in ("prose", "bullets")
        assert (p.get("kind") in KINDS) == (p["label"] == "contradiction"), p["id"]
        _check_side(p["first"], f"{p['id']}.first")
        _check_side(p["second"], f"{p['id']}.second")
        a, b = p["first"], p["second"]
        assert _slug(a["title"]) != _slug(b["title"]), p["id"]
        if "source_ref" in a and "source_ref" in b:
            assert a["source_ref"] != b["source_ref"], p["id"]
        assert (a["zone"], a["sensitivity"]) == (b["zone"], b["sensitivity"]), p["id"]
        # several claims: sentences or list items
        assert len(re.findall(r"[.!?](?:\s|$)|^\s*(?:[-*]|\d+[.)])\s", a["content"], re.M)) >= 3, p["id"]
    strata = defaultdict(list)
    for p in summaries:
        strata[(p["label"], p["domain"])].append(p)
    for n, (_, members) in enumerate(sorted(strata.items())):
        members = sorted(members, key=lambda p: (p.get("kind") or "", hashlib.sha256(p["id"].encode()).hexdigest()))
        for i, p in enumerate(members):
            assert p["split"] == ("dev" if (i + n) % 2 == 0 else "heldout"), p["id"]
    pair_titles = {_slug(p[s]["title"]) for p in summaries for s in ("first", "second")}
    assert not pair_titles & {_slug(d["title"]) for d in distractors}


@pytest.mark.parametrize("name", ["third", "fourth"])
def test_battery_set_is_its_batteries_split_as_committed(name):
    """agent_pairs_<name>.jsonl is exactly what make_battery_split.py builds from the set's two batteries: the split
    cannot be moved by hand after the fact, each half holds half of every (battery, label) group, and no pair shares
    a key, a title or a source ref between its sides."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_battery_split", DATA / "make_battery_split.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    pairs = _jsonl(f"agent_pairs_{name}.jsonl")
    assert pairs == mod.build(name)
    counts = Counter((p["domain"], p["label"], p["split"]) for p in pairs)
    assert set(counts) == {(d, lab, f"{name}-{h}") for d, lab, _ in counts for h in ("dev", "heldout")}
    for (domain, label, split), n in counts.items():
        other = f"{name}-heldout" if split == f"{name}-dev" else f"{name}-dev"
        assert abs(n - counts[(domain, label, other)]) <= 1
    assert len(pairs) >= 200 and {p["label"] for p in pairs} == LABELS
    for p in pairs:
        first, second = p["first"], p["second"]
        assert "key" not in first and "key" not in second and "title" not in first and "title" not in second
        assert first["source_ref"] != second["source_ref"] and first["content"] != second["content"]
