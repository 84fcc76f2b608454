"""No secret reaches the wiki through any free-text field the engine stores (issue 7, secrets).

A secret is refused (`reject` / `secret_detected`, nothing written) unless the call asks for redaction, which stores
`[REDACTED:<class>]` and lists the classes in `details.redacted`. The receipt never carries the secret.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memkeeper.core import Engine
from tests.conftest import T0
from tests.core.test_secrets import POSITIVES, _random_tokens, _row_id

HUMAN = "human:alice"
GITHUB = "ghp_" + "Xy7Qw3Rt9Zk2Lm5Np8Vb4Hc6Jd1Fg0Sa2UeK"  # 36 characters after the prefix
STATEMENT = "The deploy bot posts release notes to the team channel after every tag."


def wiki_text(root: Path) -> str:
    """Everything the engine wrote under the root (pages, ledgers, receipts, log, notebooks)."""
    return "\n".join(
        p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memkeeper" not in p.parts
    )


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Engine:
    engine = Engine.init(tmp_path_factory.mktemp("secrets") / "memory", now=T0)
    yield engine
    engine.close()


@pytest.mark.parametrize("row", POSITIVES, ids=_row_id)
def test_every_corpus_secret_is_refused_in_capture_text(shared, row):
    r = shared.capture(row["text"], now=T0)
    assert (r.status, r.details["reason"]) == ("reject", "secret_detected")
    assert r.details["secret_classes"] and r.details["secret_fields"] == ["text"]
    receipt = json.dumps(r.to_dict())
    assert [t for t in _random_tokens(row["text"]) if t in receipt] == [], "the receipt echoes the secret"
    assert list((shared.root / "entries").iterdir()) == []


# One field at a time: the capture keyword and a value holding a secret (GITHUB, or the URL password).
FIELDS = {
    "text": f"{STATEMENT} Token {GITHUB}.",
    "title": f"Release bot {GITHUB}",
    "key": f"release-bot-{GITHUB}",
    "tags": ["release", GITHUB],
    "recall": ["release notes", f"bot token {GITHUB}"],
    "quiz_question": f"Which token does the release bot use ({GITHUB})?",
    "source_ref": "https://ci:Zq8rT2wPx4@ci.example.com/job/42",
}
SECRET_IN = {"source_ref": "Zq8rT2wPx4"}


def _capture_with(eng: Engine, field: str, redact: bool = False):
    if field == "text":
        return eng.capture(FIELDS["text"], now=T0, redact=redact)
    return eng.capture(STATEMENT, now=T0, redact=redact, **{field: FIELDS[field]})


@pytest.mark.parametrize("field", list(FIELDS))
def test_secret_in_any_capture_field_is_refused(eng, field):
    r = _capture_with(eng, field)
    assert (r.status, r.details["reason"]) == ("reject", "secret_detected")
    assert r.details["secret_fields"] == [field]
    secret = SECRET_IN.get(field, GITHUB)
    assert secret not in json.dumps(r.to_dict())
    assert list((eng.root / "entries").iterdir()) == []
    assert secret not in wiki_text(eng.root)


@pytest.mark.parametrize("field", list(FIELDS))
def test_secret_in_any_capture_field_is_redacted_on_request(eng, field):
    r = _capture_with(eng, field, redact=True)
    assert r.status == "captured", r.details
    secret = SECRET_IN.get(field, GITHUB)
    expected = "url_password" if field == "source_ref" else "github_token"
    assert r.details["redacted"] == [expected]
    assert secret not in json.dumps(r.to_dict())
    page = (eng.root / r.details["page"]).read_text(encoding="utf-8")
    assert secret not in wiki_text(eng.root)
    if field == "key":  # the key is slugified after redaction
        assert r.details["canonical_key"] == "release-bot-redacted-github-token"
    else:
        assert f"[REDACTED:{expected}]" in page


def test_key_is_scanned_before_it_is_slugified(eng):
    # Slugified, this AWS key id would read `akiaabcdefghijklmnop` and no longer look like one.
    r = eng.capture(STATEMENT, now=T0, key="AKIAABCDEFGHIJKLMNOP")
    assert (r.status, r.details["secret_classes"]) == ("reject", ["aws_access_key"])


def test_import_refuses_a_secret_item(eng, tmp_path):
    other = Engine.init(tmp_path / "other", now=T0)
    other.capture(STATEMENT, now=T0, title="Release notes bot")
    env = other.export(zone="private_self", now=T0, include_content=True).details["envelope"]
    path = other.root / env
    data = json.loads(path.read_text())
    data["items"][0]["content"] = f"{STATEMENT} It uses {GITHUB}."
    from memkeeper.core.receipts import canonical_json
    from memkeeper.core.text import sha256_hex

    payload = {k: data.get(k) for k in ("zone", "include_content", "items", "selected_ids", "source_receipt_sha256")}
    data["payload_sha256"] = sha256_hex(canonical_json(payload))
    path.write_text(json.dumps(data))
    r = eng.import_envelope(str(path), now=T0)
    assert [x["status"] for x in r.details["results"]] == ["reject"]
    assert GITHUB not in wiki_text(eng.root)
    other.close()


# --- verify deny --reason ----------------------------------------------------------------------------------------


def _pending(eng: Engine) -> str:
    r = eng.capture("Kenji prefers async standups on Tuesdays and Thursdays.", now=T0, source_ref="raw/c.md")
    return r.details["memory_id"]


def test_secret_in_deny_reason_is_refused(eng):
    mid = _pending(eng)
    r = eng.deny(mid, now=T0, actor=HUMAN, reason=f"wrong, and the bot token is {GITHUB}")
    assert (r.status, r.details["reason"], r.details["secret_classes"]) == (
        "reject",
        "secret_detected",
        ["github_token"],
    )
    assert GITHUB not in json.dumps(r.to_dict())
    assert eng.load(mid).status.value == "active"
    assert not (eng.root / "stated" / "denials.jsonl").exists()
    assert GITHUB not in wiki_text(eng.root)


def test_secret_in_deny_reason_is_redacted_on_request(eng):
    mid = _pending(eng)
    r = eng.deny(mid, now=T0, actor=HUMAN, reason=f"wrong, and the bot token is {GITHUB}", redact=True)
    assert r.status == "denied" and r.details["redacted"] == ["github_token"]
    assert r.details["reason"] == "wrong, and the bot token is [REDACTED:github_token]"
    ledger = (eng.root / "stated" / "denials.jsonl").read_text()
    assert "[REDACTED:github_token]" in ledger
    assert "[REDACTED:github_token]" in (eng.root / eng.page_of(mid)).read_text()
    assert GITHUB not in wiki_text(eng.root)


def test_plain_deny_reason_is_stored_as_given(eng):
    mid = _pending(eng)
    r = eng.deny(mid, now=T0, actor=HUMAN, reason="wrong person; reset your password monthly anyway")
    assert r.status == "denied" and "redacted" not in r.details
    assert "reset your password monthly" in (eng.root / "stated" / "denials.jsonl").read_text()


# --- quiz record --answer ----------------------------------------------------------------------------------------


def test_secret_in_quiz_answer_is_refused(eng):
    mid = _pending(eng)
    r = eng.quiz_record(mid, "good", now=T0, actor=HUMAN, answer=f"the one with {GITHUB}")
    assert (r.status, r.details["reason"], r.details["secret_fields"]) == ("reject", "secret_detected", ["answer"])
    assert GITHUB not in json.dumps(r.to_dict())
    assert not list((eng.root / "quiz").glob("*.md"))


def test_secret_in_quiz_question_is_refused(eng):
    mid = _pending(eng)
    r = eng.quiz_record(mid, "good", now=T0, actor=HUMAN, question=f"Which token is {GITHUB}?")
    assert (r.status, r.details["secret_fields"]) == ("reject", ["question"])
    assert not list((eng.root / "quiz").glob("*.md"))


def test_secret_in_quiz_answer_and_question_is_redacted_on_request(eng):
    mid = _pending(eng)
    r = eng.quiz_record(
        mid,
        "good",
        now=T0,
        actor=HUMAN,
        answer=f"the one with {GITHUB}",
        question=f"Which token is {GITHUB}?",
        redact=True,
    )
    assert r.status == "recorded" and r.details["redacted"] == ["github_token"]
    notebook = (eng.root / "quiz" / "2026-11-20.alice.md").read_text()
    assert "the one with [REDACTED:github_token]" in notebook
    assert GITHUB not in wiki_text(eng.root)


def test_a_short_password_word_in_prose_is_refused_and_prose_about_pwd_is_kept(eng):
    """Exploratory pass (2026-12-03): "my mysql pwd is Sup3rS3cret!" was stored."""
    r = eng.capture("my mysql pwd is Sup3rS3cret!", now=T0)
    assert (r.status, r.details["reason"]) == ("reject", "secret_detected")
    assert r.details["secret_classes"] == ["password_assignment"] and "Sup3rS3cret" not in json.dumps(r.to_dict())
    assert list((eng.root / "entries").iterdir()) == []
    r = eng.capture("my mysql pwd is Sup3rS3cret!", now=T0, redact=True)
    assert r.status == "captured" and r.details["redacted"] == ["password_assignment"]
    assert "Sup3rS3cret" not in wiki_text(eng.root)
    for text in ("the pwd command prints the working directory", "my PIN is in 1Password"):
        assert eng.capture(text, now=T0).status == "captured", text


# --- a secret typed into a page by hand -----------------------------------------------------------------------------


def _hand_edit(engine: Engine, page: Path, old: str, new: str) -> Path:
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new, 1), encoding="utf-8")
    return page


def _shared_record(engine: Engine) -> str:
    r = engine.capture(STATEMENT, title="Release bot", zone="trusted_collaborator", sensitivity="public_safe", now=T0)
    assert r.status == "captured"
    return r.details["memory_id"]


def test_a_secret_typed_into_a_page_by_hand_is_never_served_nor_exported(eng):
    """A page the engine wrote, edited by hand to hold a token, is not read: `check` names it (classes and field,
    never the value), no zone retrieves it, an export carries nothing of it, and loading it refuses. The page is
    left as it is on disk; taking the secret out makes it a record again."""
    mid = _shared_record(eng)
    page = _hand_edit(eng, eng.root / str(eng.page_of(mid)), STATEMENT, f"{STATEMENT} Deploy with token {GITHUB}.")
    report = eng.check()
    lines = [p for p in report.problems if page.name in p]
    assert len(lines) == 1 and "github_token in content" in lines[0]
    assert GITHUB not in "\n".join(report.problems)
    for zone in ("private_self", "trusted_collaborator", "outside_contact"):
        r = eng.retrieve("release notes bot", zone=zone, now=T0, record_access=False)
        assert GITHUB not in json.dumps(r.to_dict()), zone
        assert mid not in json.dumps(r.to_dict()), zone
    exported = eng.export(zone="trusted_collaborator", include_content=True, now=T0)
    envelope = (eng.root / exported.details["envelope"]).read_text(encoding="utf-8")
    assert GITHUB not in envelope and mid not in envelope
    assert eng.get(mid) is None  # held as a bad page, as a malformed one is
    assert GITHUB in page.read_text(encoding="utf-8"), "the page is never edited by the engine"
    _hand_edit(eng, page, f" Deploy with token {GITHUB}.", "")
    assert eng.check().ok
    assert mid in json.dumps(eng.retrieve("release notes bot", zone="outside_contact", now=T0).to_dict())


@pytest.mark.parametrize("field", ["title", "tags", "source_ref"])
def test_a_secret_in_another_field_of_a_hand_edited_page_is_found(eng, field):
    mid = _shared_record(eng)
    page = eng.root / str(eng.page_of(mid))
    text = page.read_text(encoding="utf-8")
    # the content edited too (the page is no longer as the engine wrote it), and the secret in the field
    text = text.replace(STATEMENT, STATEMENT + " Edited by hand.", 1)
    if field == "title":
        text = text.replace("title: Release bot", f"title: Release bot {GITHUB}", 1)
    elif field == "tags":
        text = text.replace("tags: []", f"tags: [{GITHUB}]", 1)
    else:
        text = text.replace("source_ref: null", "source_ref: https://ci:Zq8rT2wPx4@ci.example.com/job/42", 1)
    page.write_text(text, encoding="utf-8")
    lines = [p for p in eng.check().problems if page.name in p]
    assert len(lines) == 1 and "holds a secret" in lines[0] and f"in {field}" in lines[0], lines


def test_a_hand_edit_without_a_secret_and_a_redacted_capture_are_read(eng):
    mid = _shared_record(eng)
    _hand_edit(eng, eng.root / str(eng.page_of(mid)), STATEMENT, STATEMENT + " The notes link to the changelog.")
    r = eng.capture(f"The staging bot uses token {GITHUB} for tags.", redact=True, now=T0)
    assert r.status == "captured"
    assert eng.check().ok
    assert "changelog" in eng.load(mid).content
    assert "[REDACTED:github_token]" in eng.load(r.details["memory_id"]).content


def test_a_secret_typed_into_the_tags_of_an_indexed_page_is_found(eng):
    """The title and content as the engine wrote them, a token added to the tags by hand: the hash cannot tell, but
    the index held the page and finds it changed without the engine's write, so it reads the page whole."""
    mid = _shared_record(eng)
    page = eng.root / str(eng.page_of(mid))
    text = page.read_text(encoding="utf-8")
    assert "tags: []" in text
    page.write_text(text.replace("tags: []", f"tags: [{GITHUB}]", 1), encoding="utf-8")
    lines = [p for p in eng.check().problems if page.name in p]
    assert len(lines) == 1 and "github_token in tags" in lines[0], lines
    exported = eng.export(zone="trusted_collaborator", include_content=True, now=T0)
    assert GITHUB not in (eng.root / exported.details["envelope"]).read_text(encoding="utf-8")
    assert eng.get(mid) is None  # held as a bad page
