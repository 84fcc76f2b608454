"""A Hypothesis strategy for whole records, shared by the page-format tests (parse/render and the YAML-free writer)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import strategies as st

from memkeeper.core.models import Category, Entry, TrustZone, Verified, single_line

T0 = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
HEX = "0123456789abcdef"


def entries(words, text, *, notes=None, empty_content: str | None = None):
    """Records whose string fields come from one of `words` (a strategy of string strategies, one drawn per
    record), whose content comes from `text` (`empty_content` stands in for an empty one, when given) and whose
    notes, when `notes` is given, from that strategy."""

    @st.composite
    def draw_entry(draw) -> Entry:
        t = T0 + timedelta(seconds=draw(st.integers(0, 10**8)))
        word = draw(words)
        content = draw(text)
        extra = {"notes": draw(st.lists(notes, max_size=2))} if notes is not None else {}
        return Entry(
            memory_id="mem_" + draw(st.text(HEX, min_size=16, max_size=16)),
            canonical_key=draw(word.filter(lambda s: bool(single_line(s)))) or "k",
            title=draw(word.filter(lambda s: bool(single_line(s)))) or "t",
            category=draw(st.sampled_from(list(Category))),
            trust_zone=draw(st.sampled_from(list(TrustZone))),
            confidence=draw(st.floats(0, 1)),
            strength=draw(st.floats(0, 5)),
            reinforcement=draw(st.integers(0, 10**6)),
            source_ref=draw(st.one_of(st.none(), word)),
            created_at=t,
            updated_at=t,
            last_accessed_at=t,
            tags=draw(st.lists(word, max_size=3)),
            recall=draw(st.lists(word, max_size=2)),
            content=content or (empty_content if empty_content is not None else content),
            verified=draw(st.one_of(st.none(), st.just(Verified(by="human:alice", at=t)))),
            normalized_content_sha256=draw(
                st.one_of(st.text(HEX, min_size=64, max_size=64), st.sampled_from(["0b" + "1" * 62, "1" * 64]))
            ),
            **extra,
        )

    return draw_entry()


def common_entry(t: datetime, title: str = "Deploy path") -> Entry:
    """The page a capture writes most often: plain strings, one tag, a source, no verification."""
    return Entry(
        memory_id="mem_0123456789abcdef",
        canonical_key="deploy-path",
        title=title,
        created_at=t,
        updated_at=t,
        last_accessed_at=t,
        tags=["ops"],
        source_ref="raw/a.md#L4",
        content="Use absolute paths.",
        normalized_content_sha256="0b4f" + "a" * 60,
    )
