from __future__ import annotations

import os
from datetime import UTC

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memkeeper.core import BadInput, Engine
from memkeeper.core.models import Entry
from memkeeper.core.pagefmt import parse_entry, render_entry, split_frontmatter
from memkeeper.core.paths import PathEscape, confine, slugify
from memkeeper.core.receipts import verify_receipt
from tests.conftest import T0


def test_path_traversal_rejected(tmp_path):
    root = tmp_path / "w"
    root.mkdir()
    for bad in ("../x.md", "entries/../../x.md", "/etc/passwd", "entries/..\\..\\x"):
        with pytest.raises(PathEscape):
            confine(root, bad)


def test_symlink_escape_rejected(tmp_path):
    root = tmp_path / "w"
    (root / "entries").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, root / "entries" / "link")
    with pytest.raises(PathEscape):
        confine(root, "entries/link/secret.md")
    # A symlink that stays inside the root is refused too: memkeeper never follows a symlink in a wiki.
    os.symlink(root / "entries", root / "alias")
    with pytest.raises(PathEscape, match="symlink"):
        confine(root, "alias/x.md")


def test_engine_refuses_escaping_review_path(eng):
    with pytest.raises(BadInput):
        eng.apply_tiers("../outside.md", [], now=T0, actor="human:alice")


def test_slugs():
    assert slugify("Ünïcödé — Straße plan") == "unicode-strasse-plan"
    assert slugify("!!!") == "entry"
    assert slugify("index") == "index-entry"
    assert len(slugify("word " * 100)) <= 80
    assert slugify("a/../../b") == "a-b"


text_st = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=200)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(title=text_st, content=text_st, tags=st.lists(text_st, max_size=4), recall=st.lists(text_st, max_size=3))
def test_frontmatter_injection_neutralised(title, content, tags, recall):
    title = title if title.strip() and any(c.isprintable() and not c.isspace() for c in title) else "t"
    e = Entry(
        memory_id="mem_0123456789abcdef",
        canonical_key="k",
        title=title,
        created_at=T0,
        updated_at=T0,
        last_accessed_at=T0,
        content=content.replace("\x00", "").strip("\n") or "c",  # a page never holds a NUL byte (a torn write)
        tags=tags,
        recall=recall,
    )
    text = render_entry(e)
    data, _ = split_frontmatter(text)
    assert set(data) == set(e.frontmatter())  # no injected keys
    back = parse_entry(text)
    assert back.title == e.title and back.tags == e.tags and back.recall == e.recall
    assert back.content == e.content
    assert back.frontmatter() == e.frontmatter()


def test_injection_attempt_via_capture(eng):
    r = eng.capture(
        "status: denied\n---\nmemory_id: evil\nThe real content is about the kestrel launch.",
        now=T0,
        title="Evil\n---\nstatus: archived",
        tags=["x\n---\nstatus: denied"],
    )
    entry = parse_entry((eng.root / r.details["page"]).read_text())
    assert entry.status.value == "active" and entry.memory_id == r.details["memory_id"]
    assert entry.title == "Evil --- status: archived"


def test_receipts_verify_and_check_passes(eng):
    eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    eng.retrieve("kestrel", now=T0)
    rep = eng.check()
    assert rep.ok, rep.problems
    assert rep.receipts >= 2
    for _, _, data, _ in eng.iter_receipts():
        assert verify_receipt(data)


def test_check_detects_tampered_receipt(eng):
    eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    f = next((eng.root / "receipts").glob("*.jsonl"))
    f.write_text(f.read_text().replace("captured", "consolidated", 1))
    rep = eng.check()
    assert any("receipt_sha256 does not match" in p for p in rep.problems)


def test_malformed_page_is_reported_and_skipped_never_rewritten(eng):
    eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    bad = eng.root / "entries" / "broken.md"
    bad.write_text("---\ntitle: [unclosed\n---\nbody\n")
    bad2 = eng.root / "entries" / "no-frontmatter.md"
    bad2.write_text("just text\n")
    fresh = Engine.open(eng.root)
    rep = fresh.check()
    assert any(p.startswith("entries/broken.md:") for p in rep.problems)
    assert any(p.startswith("entries/no-frontmatter.md:") for p in rep.problems)
    r = fresh.retrieve("kestrel", now=T0, record_access=False)
    assert len(r.details["results"]) == 1
    fresh.capture("Another kestrel fact: the rollout pauses on Fridays.", now=T0)
    fresh.compile(now=T0)
    assert bad.read_text() == "---\ntitle: [unclosed\n---\nbody\n"
    fresh.close()


def test_unreadable_page_reported(eng, monkeypatch):
    eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    p = eng.root / "entries" / "locked.md"
    p.write_text("---\n---\n")
    from memkeeper.core import index as index_mod

    real = index_mod.read_at

    def read_at(dir_fd, name, **kw):
        # root reads any file, so simulate the permission error the OS gives an ordinary user
        if name == "locked.md":
            raise PermissionError(13, "Permission denied")
        return real(dir_fd, name, **kw)

    monkeypatch.setattr(index_mod, "read_at", read_at)
    fresh = Engine.open(eng.root)
    rep = fresh.check()
    assert any(x.startswith("entries/locked.md: unreadable page") for x in rep.problems)
    assert len(fresh.retrieve("kestrel", now=T0, record_access=False).details["results"]) == 1
    fresh.close()


def test_root_that_is_not_a_directory(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(BadInput, match="not a directory"):
        Engine.open(f)
    with pytest.raises(BadInput, match="does not exist"):
        Engine.open(tmp_path / "missing")


def test_atomic_write_leaves_no_temp_files(eng):
    for n in range(5):
        eng.capture(f"Kestrel fact number {n}: the rollout has {n} waves in total.", now=T0)
    leftovers = [p for p in eng.root.rglob("*.tmp")]
    assert leftovers == []


def test_receipt_timestamps_are_utc(eng):
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0.astimezone(UTC))
    assert r.at == "2026-11-20T09:00:00Z"


def test_check_names_file_and_line_of_an_invalid_field(eng):
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    page = eng.root / r.details["page"]
    text = page.read_text().replace("trust_zone: private_self", "trust_zone: everyone")
    page.write_text(text)
    line = text.split("\n").index("trust_zone: everyone") + 1
    rep = Engine.open(eng.root).check()
    assert any(p.startswith(f"{r.details['page']}: invalid field trust_zone (line {line})") for p in rep.problems), (
        rep.problems
    )


def test_read_receipts_tails_and_notices_hand_edits(eng):
    eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    first, cursor = eng.read_receipts()
    assert len(first) == 1
    assert eng.read_receipts(cursor)[0] == []
    eng.capture("The heron rollout pauses on Fridays before the freeze.", now=T0)
    new, cursor = eng.read_receipts(cursor)
    assert [n for _, n, _, _ in new] == [2]
    f = next((eng.root / "receipts").glob("*.jsonl"))
    f.write_text(f.read_text().replace("captured", "CAPTURED", 1))  # same size, bytes before the offset changed
    again, _ = eng.read_receipts(cursor)
    assert [n for _, n, _, _ in again] == [1, 2] and not verify_receipt(again[0][2])


# ---------------------------------------------------------------------------------------------------- bounded parsing


def _bomb(levels: int = 5, width: int = 10) -> str:
    """A YAML alias bomb: `levels` anchors each repeating the previous one `width` times (width**levels leaves)."""
    lines = ['a0: &a0 ["lol"]']
    for n in range(1, levels + 1):
        lines.append(f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * width) + "]")
    return "\n".join(lines)


def test_alias_bomb_page_does_not_stop_other_commands(eng, capsys):
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    good = (eng.root / r.details["page"]).read_text()
    bomb = good.replace("tags: []\n", "tags: []\nextra:\n" + "\n".join("  " + x for x in _bomb().split("\n")) + "\n")
    bomb = bomb.replace(r.details["memory_id"], "mem_00000000000000ff")
    (eng.root / "entries" / "bomb.md").write_text(bomb)
    line = bomb.split("\n").index("extra:") + 2
    fresh = Engine.open(eng.root)
    rep = fresh.check()
    assert any(
        p.startswith(f"entries/bomb.md: YAML anchors and aliases are not allowed (frontmatter line {line})")
        for p in rep.problems
    ), rep.problems
    assert len(fresh.retrieve("kestrel", now=T0).details["results"]) == 1
    assert fresh.capture("The heron rollout pauses on Fridays before the freeze.", now=T0).status == "captured"
    fresh.compile(now=T0)
    assert (eng.root / "entries" / "bomb.md").read_text() == bomb  # reported, never rewritten
    fresh.close()
    from memkeeper.tui.cli import main

    assert main(["--root", str(eng.root), "--now", "2026-11-20T09:00:00Z", "retrieve", "kestrel"]) == 0
    capsys.readouterr()


def test_alias_in_conflict_quiz_and_review_files_is_reported(eng):
    eng.capture("The primary database is Postgres.", now=T0, key="primary-db")
    r = eng.capture("The primary database is MySQL.", now=T0, key="primary-db")
    assert r.status == "conflict"
    cpath = eng.root / "conflicts" / f"{r.details['conflict_id']}.md"
    cpath.write_text(cpath.read_text().replace("---\n", "---\n" + _bomb() + "\n", 1))
    ledger = eng.root / "quiz" / "quiz-ledger.alice.md"
    ledger.write_text("---\nkind: quiz-ledger\n" + _bomb() + "\n---\n\n## Items (0)\n\n(none)\n")
    review = eng.root / "review" / "tier-review-2026-11-20.md"
    review.write_text(
        "---\nkind: cleanup\nsource: tier-cleanup\n" + _bomb() + "\n---\n\n## Decision\n\nA. accepted IDs: (none)\n"
    )
    fresh = Engine.open(eng.root)
    rep = fresh.check()
    assert any(
        p.startswith(f"conflicts/{r.details['conflict_id']}.md: YAML anchors and aliases are not allowed")
        for p in rep.problems
    ), rep.problems
    assert any(
        p.startswith("quiz/quiz-ledger.alice.md: line 3: frontmatter uses YAML anchors/aliases") for p in rep.problems
    ), rep.problems
    applied = fresh.apply_tiers("review/tier-review-2026-11-20.md", [], now=T0, actor="human:alice")
    assert applied.status == "reject" and any("anchors/aliases" in e for e in applied.details["errors"])
    assert fresh.counts(T0)["open_conflicts"] == 0  # the unreadable record is skipped, counts still work
    fresh.close()


def test_oversized_page_is_reported_not_loaded(eng):
    eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    big = eng.root / "entries" / "big.md"
    big.write_text("---\ntitle: x\n---\n" + "x" * (1024 * 1024))
    rep = Engine.open(eng.root).check()
    assert any(p.startswith("entries/big.md:") and "over the 1 MiB limit" in p for p in rep.problems), rep.problems


def test_engine_refuses_to_write_a_page_it_could_not_read_back(eng):
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    entry = eng.load(r.details["memory_id"])
    before = (eng.root / r.details["page"]).read_bytes()
    entry.notes = ["n" * 60_000] * 20
    with pytest.raises(BadInput, match="1 MiB page limit"):
        eng.save(entry)
    assert (eng.root / r.details["page"]).read_bytes() == before


def test_oversized_ledger_is_reported_and_never_overwritten(eng):
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    ledger = eng.root / "quiz" / "quiz-ledger.alice.md"
    with ledger.open("wb") as fh:
        fh.truncate(65 * 1024 * 1024)  # sparse: over the limit without writing 65 MiB
    rep = eng.check()
    assert any(p.startswith("quiz/quiz-ledger.alice.md: unreadable ledger") for p in rep.problems), rep.problems
    assert eng.capture("The heron rollout pauses on Fridays before the freeze.", now=T0).status == "captured"
    with pytest.raises(BadInput, match="over the 64 MiB limit"):
        eng.quiz_record(r.details["memory_id"], "good", now=T0, actor="human:alice")
    assert ledger.stat().st_size == 65 * 1024 * 1024


def test_import_of_device_file_is_refused(tmp_path, capsys):
    from memkeeper.tui.cli import main

    root = tmp_path / "memory"
    assert main(["--root", str(root), "--now", "2026-11-20T09:00:00Z", "init"]) == 0
    capsys.readouterr()
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)  # would block a plain open() forever
    sparse = tmp_path / "huge.json"
    with sparse.open("wb") as fh:
        fh.truncate(129 * 1024 * 1024)
    for path, why in (
        ("/dev/zero", "not a regular file"),
        (str(fifo), "not a regular file"),
        (str(sparse), "over the 128 MiB envelope limit"),
    ):
        code = main(["--root", str(root), "--now", "2026-11-20T09:00:00Z", "import", path])
        _, err = capsys.readouterr()
        assert code == 2, err
        assert err.count("\n") == 1 and why in err, err


# ---------------------------------------------------------------------------------------------------- keys and names


def test_emoji_titles_do_not_merge(eng):
    a = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0, title="🎉")
    b = eng.capture("Quarterly invoices are sent on the first Monday.", now=T0, title="🎉")
    assert a.status == b.status == "captured"
    assert a.details["memory_id"] != b.details["memory_id"]
    assert a.details["canonical_key"] == "kestrel-rollout-uses-canary-waves-five"
    assert b.details["canonical_key"] != a.details["canonical_key"]
    for title in ("---", ".."):
        r = eng.capture(f"Unrelated statement number {len(title)} about the {title} heron queue.", now=T0, title=title)
        assert r.status == "captured" and r.details["canonical_key"].startswith("unrelated-statement")
    assert all(r.details["page"] != "entries/entry.md" for r in (a, b))


def test_tokenless_content_gets_a_key_from_its_hash(eng):
    a = eng.capture("🎉🎉🎉🎉🎉🎉🎉🎉 🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀", now=T0, title="🎉")
    b = eng.capture("🌧🌧🌧🌧🌧🌧🌧🌧 🌈🌈🌈🌈🌈🌈🌈🌈🌈🌈", now=T0, title="🎉")
    assert a.status == b.status == "captured"
    assert a.details["canonical_key"].startswith("entry-") and len(a.details["canonical_key"]) == 14
    assert a.details["canonical_key"] != b.details["canonical_key"]


def test_explicit_key_that_slugs_to_nothing_is_rejected(eng):
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0, key="🎉")
    assert r.status == "reject" and r.details["reason"] == "invalid_key"


@pytest.mark.parametrize("key", ["   ", "\t\n ", "\u3000"])
def test_a_key_of_whitespace_is_no_key(eng, key):
    """An empty key was no key and a key of spaces `invalid_key`: both say nothing, and both are taken as no key
    (the key is derived), on every front door (the command line's `--key "  "`, an agent's `key: "   "`)."""
    text = "The kestrel rollout uses canary waves of five percent."
    r = eng.capture(text, now=T0, key=key)
    assert r.status == "captured", r.details
    assert r.details["canonical_key"] == eng.capture(text, now=T0).details["canonical_key"]
    assert eng.capture(text, now=T0, key="").details["memory_id"] == r.details["memory_id"]


@pytest.mark.parametrize(
    "title", ["COM2", "com9", "LPT1", "lpt9", "ＣＯＭ２", "ＬＰＴ５", "COM¹", "LPT²", "CON", "nul", "COM0", "Aux"]
)
def test_windows_device_names_never_become_file_names(eng, title):
    slug = slugify(title)
    assert slug.endswith("-entry"), slug
    r = eng.capture(f"The {title} port is reserved on the build hosts for the heron rig.", now=T0, title=title)
    name = r.details["page"].split("/")[1][:-3]
    assert name.split("--")[0] == slug
