"""The consistent-notes corpus (benchmarks/data/consistent_notes.jsonl) is what its generator writes, and well formed.

This guards the data benchmarks/consistent.py reads, not the detector: the generator is deterministic, the committed
file is its output, ids and texts are unique, every note has what a capture needs, `at` never goes back within a
persona, and each persona is one half, fixed before any measurement."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from datetime import datetime
from pathlib import Path

import pytest

from memkeeper.core.models import Category

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"
FIELDS = {
    "id",
    "persona",
    "half",
    "split",
    "at",
    "agent",
    "title",
    "text",
    "category",
    "zone",
    "sensitivity",
    "source_type",
}
CATEGORIES = {c.value for c in Category}  # the engine's own list


def _generator():
    spec = importlib.util.spec_from_file_location("make_consistent_notes", DATA / "make_consistent_notes.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _notes() -> list[dict]:
    return [json.loads(line) for line in (DATA / "consistent_notes.jsonl").read_text(encoding="utf-8").splitlines()]


def test_the_generator_is_deterministic_and_the_committed_file_is_its_output():
    gen = _generator()
    first, second = gen.build(), gen.build()
    assert first == second
    assert gen.render(first) == (DATA / "consistent_notes.jsonl").read_text(encoding="utf-8")


def test_ids_and_texts_are_unique_and_every_note_has_what_a_capture_needs():
    notes = _notes()
    assert len({n["id"] for n in notes}) == len(notes)
    assert len({" ".join(n["text"].split()) for n in notes}) == len(notes)
    for n in notes:
        assert FIELDS <= set(n) <= FIELDS | {"source_ref"}, n["id"]
        assert n["title"].strip() and n["text"].strip(), n["id"]
        assert n["agent"].startswith("agent:"), n["id"]
        assert n["category"] in CATEGORIES, n["id"]
        assert n["zone"] == "private_self" and n["sensitivity"] == "normal", n["id"]
        assert n.get("source_ref", "x").strip(), n["id"]


def test_each_persona_is_one_half_in_time_order_within_the_three_months():
    notes = _notes()
    assert {n["persona"]: n["half"] for n in notes} == {"a": "dev", "b": "heldout"}
    for persona in ("a", "b"):
        mine = [n for n in notes if n["persona"] == persona]
        assert len(mine) >= 350
        assert 3 <= len({n["agent"] for n in mine}) <= 4
        ats = [datetime.fromisoformat(n["at"]) for n in mine]
        assert all(a.tzinfo is not None for a in ats)
        assert all(b >= a for a, b in zip(ats, ats[1:], strict=False)), persona
        assert all(datetime(2026, 9, 1).date() <= a.date() <= datetime(2026, 11, 30).date() for a in ats)
        assert [n["id"] for n in mine] == [f"cons-{persona}-{i:04d}" for i in range(1, len(mine) + 1)]


def test_the_note_level_split_follows_the_stated_rule():
    for n in _notes():
        even = int(hashlib.sha256(n["id"].encode()).hexdigest(), 16) % 2 == 0
        assert n["split"] == ("dev" if even else "heldout"), n["id"]


def test_the_bench_lists_a_dev_half_and_never_a_held_out_one():
    import sys

    sys.path.insert(0, str(DATA.parent))
    import consistent

    dev = consistent.Consistent("dev", notes=2, conflicts=[("possible", "n1", "n2", "differs: a / b")])
    dev.texts = {"n1": "Atlas deploys on Fridays.", "n2": "Orbit deploys on Mondays."}
    assert "Orbit deploys on Mondays." in consistent.list_half(dev)
    held = consistent.Consistent("heldout", notes=2, conflicts=dev.conflicts, texts=dev.texts)
    report = consistent.format_report([dev, held])
    assert "| heldout | 2 | 1 | 500.0 |" in report and "Orbit" not in report
    with pytest.raises(ValueError):
        consistent.list_half(held)
